# ---------------------------------------------------------------------------------------------
# 8. Running the target
#
# Owns: the command line (`parse_args`), a fresh __main__ like `python PATH|-m|-c`
# (`prepare_main`), the "exec" audit hook that records module bodies, running the program and
# turning how it ended into an exit status and exception text, pystats counters on/off around
# it, and `main`, which runs everything in order; on a pystats build, writing the dump in a
# forked child (`in_forked_child`) unless program threads still run.

class Options:
    def __init__(self):
        self.out, self.include, self.exclude = None, [], []
        self.include_unrun, self.interval_ms, self.sample = False, 1.0, True
        self.pystats_dir, self.kind, self.value, self.args = None, None, None, []


def parse_args(argv):
    o = Options()
    if "--" not in argv:
        raise ValueError("expected -- script PATH | module NAME | code SOURCE")
    cut = argv.index("--")
    opts, target = argv[:cut], argv[cut + 1:]
    i = 0
    while i < len(opts):
        a = opts[i]
        if a in ("--include-unrun", "--no-sample"):
            o.include_unrun |= a == "--include-unrun"
            o.sample &= a != "--no-sample"
            i += 1
            continue
        if i + 1 >= len(opts) or a not in ("--out", "--include", "--exclude", "--interval-ms",
                                           "--pystats-dir"):
            raise ValueError("unknown option or missing value: " + a)
        val = opts[i + 1]
        if a == "--out":
            o.out = val
        elif a == "--include":
            o.include.append(val)
        elif a == "--exclude":
            o.exclude.append(val)
        elif a == "--interval-ms":
            o.interval_ms = float(val)
            if not o.interval_ms > 0:
                raise ValueError("--interval-ms must be positive")
        else:
            o.pystats_dir = val
        i += 2
    if not o.out:
        raise ValueError("--out is required")
    if len(target) < 2 or target[0] not in ("script", "module", "code"):
        raise ValueError("expected -- script PATH | module NAME | code SOURCE, then ARGS")
    o.kind, o.value, o.args = target[0], target[1], target[2:]
    return o


def prepare_main(opts):
    """Set sys.argv/sys.path and make a fresh __main__ module; returns (code, module)."""
    import builtins
    import importlib.machinery
    main = types.ModuleType("__main__")
    main.__builtins__ = builtins
    if opts.kind == "script":
        path = opts.value
        sys.argv = [path] + opts.args
        sys.path[0] = os.path.dirname(os.path.realpath(path))
        main.__file__, main.__cached__ = path, None
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
        with open(path, "rb") as f:
            source = f.read()
        code = compile(source, path, "exec")
    elif opts.kind == "module":
        import importlib.util
        sys.argv = ["-m"] + opts.args
        sys.path[0] = os.getcwd()
        spec = importlib.util.find_spec(opts.value)
        if spec is None:
            raise ImportError("No module named %s" % opts.value)
        if spec.submodule_search_locations is not None:   # a package: run its __main__
            spec = importlib.util.find_spec(opts.value + ".__main__")
            if spec is None:
                raise ImportError("No module named %s.__main__" % opts.value)
        code = spec.loader.get_code(spec.name)
        sys.argv[0] = spec.origin
        main.__file__, main.__cached__ = spec.origin, getattr(spec, "cached", None)
        main.__loader__, main.__spec__, main.__package__ = spec.loader, spec, spec.parent
    else:
        sys.argv = ["-c"] + opts.args
        sys.path[0] = ""
        main.__loader__ = importlib.machinery.BuiltinImporter
        code = compile(opts.value, "<string>", "exec")
    sys.modules["__main__"] = main
    return code, main


def exception_text(exc):
    tp = type(exc)
    name = tp.__qualname__
    if tp.__module__ not in ("builtins", "__main__"):
        name = "%s.%s" % (tp.__module__, name)
    try:
        msg = str(exc).split("\n", 1)[0]
    except Exception:
        msg = "<unprintable %s object>" % tp.__name__
    return "%s: %s" % (name, msg) if msg else name


def report_exception(exc):
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == SELF_FILE:
        tb = tb.tb_next   # show the program's traceback, not the harness's frames
    exc.__traceback__ = tb
    try:
        sys.excepthook(type(exc), exc, tb)
    except Exception:
        import traceback
        traceback.print_exception(type(exc), exc, tb)


def exit_status_of(exc):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):   # bool too: unittest ends with sys.exit(not ok)
        return int(code)
    try:
        print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


_EXEC_CODES = []
_RECORDING = [False]
_SAMPLER = [None]
_FORKS = [0]            # os.fork()s the program made in this process


class _ForkThreadsWarning:
    """Matches only the text of CPython's "forking a multi-threaded process" warning."""
    def match(self, text):
        return text.startswith("This process (pid=") and "is multi-threaded, use of fork()" in text


# Inserted by an approved fork's _before_fork and left until the next fork or the program's
# end: 3.12 warns before the after-fork hooks run, 3.13 after them, so no hook can remove it
# in time; it matches nothing but the warning of a fork.
_FORK_FILTER = ("ignore", _ForkThreadsWarning(), DeprecationWarning, None, 0)
_FORK_FILTERED = [False]
_FORK_HOOKED = [False]
_HARNESS_MODULE = None


def _audit(event, args):
    # Runs for every audit event in the process: keep it to one compare in the common case.
    if event == "exec" and _RECORDING[0]:
        _EXEC_CODES.append(args[0])


def _warning_filters():
    """The live warnings filter list, without running the warnings module's Python code."""
    import _warnings
    w = sys.modules.get("warnings")
    return getattr(w if w is not None else _warnings, "filters", None)


def _os_threads():
    """How many threads this process has, counted as CPython's fork warning counts them."""
    try:
        with open("/proc/self/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[17])
    except (OSError, ValueError, IndexError):
        return len(sys._current_frames())


def _before_fork():
    # Runs last of the before-fork hooks (registered first): counts the threads as they are
    # at the fork.
    _unfilter_fork()
    sampler = _SAMPLER[0]
    if (_RECORDING[0] and sampler is not None and sampler.running()
            and _os_threads() <= 2):   # this thread and the sampler's: the program has no other
        try:
            _warning_filters().insert(0, _FORK_FILTER)
            _FORK_FILTERED[0] = True
        except Exception:
            pass


def _unfilter_fork():
    if _FORK_FILTERED[0]:
        _FORK_FILTERED[0] = False
        try:
            _warning_filters().remove(_FORK_FILTER)
        except Exception:
            pass


def _after_fork(parent):
    if _RECORDING[0]:
        if parent:
            _FORKS[0] += 1
        else:
            _unfilter_fork()
            if _SAMPLER[0] is not None:
                _SAMPLER[0].forked()


def other_processes_warning():
    """Says which other Python processes the program started, whose bytecode is not dumped."""
    counter = getattr(sys.modules.get("multiprocessing.process"), "_process_counter", None)
    try:   # itertools.count(n): the next Process gets number n; reading it takes nothing
        mp = int(repr(counter)[6:-1]) - 1 if counter is not None else 0
    except ValueError:
        mp = 0
    parts = ["%d %s" % (n, w) for n, w in ((_FORKS[0], "os.fork()"),
                                           (mp, "multiprocessing process(es)")) if n]
    if parts:
        log("warning: the program started other processes (%s; a multiprocessing process with "
            "the fork start method counts in both); their bytecode is not captured, only this "
            "process's is in the dump" % ", ".join(parts))


def pystats_files(d):
    try:
        return {os.path.join(d, n) for n in os.listdir(d)}
    except OSError:
        return set()


def install_paths():
    """Where this interpreter keeps the standard library and installed packages, so that
    reports can show `<stdlib>/json/decoder.py` and `<site-packages>/pkg/mod.py` instead of
    one machine's absolute paths."""
    import site
    import sysconfig
    paths = sysconfig.get_paths()
    # Where the stdlib really is, too: a zip on sys.path (pyodide: /lib/python314.zip) holds
    # modules that sysconfig places in /lib/python3.14.
    stdlib = [paths.get("stdlib"), paths.get("platstdlib"), os.path.dirname(os.__file__)]
    packages = [paths.get("purelib"), paths.get("platlib")]
    try:
        packages += list(site.getsitepackages())
    except AttributeError:   # old virtualenv's site.py
        pass
    try:
        packages.append(site.getusersitepackages())
    except AttributeError:
        pass

    def unique(dirs):
        out = []
        for d in dirs:
            if d and os.path.abspath(d) not in out:
                out.append(os.path.abspath(d))
        return out
    return {"stdlib": unique(stdlib), "site_packages": unique(packages)}


def main(argv):
    impl = sys.implementation.name
    if impl != "cpython" or sys.version_info < (3, 11):
        log("adaptive bytecode needs CPython 3.11+ (this is %s %s)"
            % (impl, ".".join(map(str, sys.version_info[:3]))))
        return 3
    try:
        opts = parse_args(argv)
    except ValueError as e:
        log(str(e))
        return 2
    _OUT[0] = opts.out
    try:
        tables()
    except Exception:
        own_failure(opts.out, "reading the interpreter's opcode tables")
        return 3
    global _HARNESS_MODULE
    _HARNESS_MODULE = sys.modules.get("__main__")   # still ours: keep it once __main__ changes
    sampler = _SAMPLER[0] = Sampler(opts.interval_ms)
    main_pid = os.getpid()
    _FORKS[0] = 0
    if hasattr(os, "register_at_fork") and not _FORK_HOOKED[0]:   # hooks cannot be removed
        _FORK_HOOKED[0] = True
        os.register_at_fork(before=_before_fork, after_in_parent=lambda: _after_fork(True),
                            after_in_child=lambda: _after_fork(False))
    pystats = bool(opts.pystats_dir) and hasattr(sys, "_stats_clear")
    stats_before = pystats_files(opts.pystats_dir) if pystats else set()
    status, exc_text = 0, None
    sys.addaudithook(_audit)
    _RECORDING[0] = True   # before prepare_main: `-m` imports the parent packages
    started = time.time()
    t0 = time.perf_counter()
    try:
        main_code, main_module = prepare_main(opts)
    except OSError as e:   # like python: "can't open file", status 2
        log("can't open file %r: %s" % (opts.value, e))
        status, exc_text, main_code = 2, exception_text(e), None
    except ImportError as e:   # like python -m: "python: No module named x", status 1
        print("%s: %s" % (sys.executable, e), file=sys.stderr)
        status, exc_text, main_code = 1, exception_text(e), None
    except SyntaxError as e:
        report_exception(e)
        status, exc_text, main_code = 1, exception_text(e), None
    else:
        if pystats:
            sys._stats_clear()
            if sys.version_info < (3, 13):
                sys._stats_on()
        if opts.sample:
            sampler.start()
        try:
            exec(main_code, main_module.__dict__)
        except SystemExit as e:
            status = exit_status_of(e)
        except KeyboardInterrupt as e:
            report_exception(e)
            status, exc_text = 130, "KeyboardInterrupt"
        except BaseException as e:
            report_exception(e)
            status, exc_text = 1, exception_text(e)
        duration = time.perf_counter() - t0
        if pystats:
            # Off before the dump on 3.13 too (where -X pystats switched counting on): the
            # dump writes and clears the counters, and 3.13 writes them again when the
            # process exits if any is non-zero, so counting on would leave a second file.
            sys._stats_off()
            sys._stats_dump()
        sampler.finish()
    _RECORDING[0] = False
    _unfilter_fork()
    if os.getpid() != main_pid:
        return status   # a child the program forked came back here: the parent dumps
    other_processes_warning()
    if main_code is None:
        duration = time.perf_counter() - t0
        if pystats:
            # 3.12+: the program never started, so it counted nothing; drop the start-up's
            # and the harness's counts (3.13 would write them when the process exits).
            sys._stats_off()
            sys._stats_clear()

    def write_dump():
        """Build and write the dump; 0, or 3 (after saying why) when it could not be."""
        timer = Timer()
        gc.disable()   # the dump is hundreds of thousands of small lists: no point collecting
        try:
            sampler.last_look()
            run = {"argv": list(sys.argv), "target": {"kind": opts.kind, "value": opts.value},
                   "cwd": os.getcwd(), "started": rfc3339(started), "duration_s": duration,
                   "exit_status": status, "exception": exc_text,
                   "sampler": {"mode": sampler.mode, "interval_ms": opts.interval_ms,
                               "samples": sampler.samples, "note": sampler.note},
                   "filters": {"include": opts.include, "exclude": opts.exclude,
                               "include_unrun": opts.include_unrun}}
            doc, raw_code = make_dump(opts, run, sampler, main_code, timer)
            extra = {"raw_code": raw_code}
            if pystats:
                extra["pystats_raw_files"] = sorted(pystats_files(opts.pystats_dir) - stats_before)
            # Before the dump: a dump on disk always has its extra file beside it.
            write_json(opts.out + ".extra.json", extra)
            write_json(opts.out, doc)
            timer("write %s" % opts.out)
        except Exception:
            own_failure(opts.out, "building the dump")
            return 3
        return 0

    # A pystats build counts whatever this process executes (3.11: all of it, written when it
    # exits): build the dump in a child whose counters are never written.
    if (opts.pystats_dir and hasattr(os, "fork") and sys.platform not in ("emscripten", "wasi")
            and not program_threads_running()):
        failed = in_forked_child(write_dump)
    else:
        failed = write_dump()
    return 3 if failed else status


_OUT = [None]   # the dump's path, for own_failure in a forked child


def own_failure(out, phase):
    """Records a failure of this file's own code (a bug in specdiff, not in the program) in
    OUT.failed: the phase on its first line, the traceback after it. The CLI reports it as
    specdiff's own error (one line; the traceback with --debug), never as the program's exit
    status."""
    import traceback
    text = "%s\n%s" % (phase, traceback.format_exc())
    try:
        with open(out + ".failed", "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
    except OSError:
        log("internal error while %s:\n%s" % (phase, text))


def program_threads_running():
    """Threads other than this one and the (stopped) sampler still run program code."""
    me = _thread.get_ident()
    for tid, frame in sys._current_frames().items():
        while tid != me and frame is not None:
            if frame.f_code.co_filename != SELF_FILE:
                return True
            frame = frame.f_back
    return False


def in_forked_child(work):
    """Run work() in a forked child and return its result (0-255), the parent waiting.

    The child leaves with os._exit: no atexit handlers, no flushing of buffers it inherited,
    no interpreter finalization, so a pystats build never writes its counters. Buffered
    output is flushed first so that neither process writes the other's. Ctrl-C: the parent
    makes sure the child got it too, waits for it, and raises KeyboardInterrupt like an
    unforked harness would have.
    """
    for f in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            f.flush()
        except Exception:
            pass
    # 3.12+ warns when it forks a process that has other threads (DeprecationWarning: on
    # stderr, or raised after the fork under -W error), and the stopped sampler's thread may
    # not be quite gone yet. Filters set without running the warnings module's Python code.
    import _warnings
    w = sys.modules.get("warnings")
    filters = getattr(w if w is not None else _warnings, "filters", None)
    ignore = ("ignore", None, DeprecationWarning, None, 0)
    try:
        filters.insert(0, ignore)
    except Exception:
        filters = None
    try:
        pid = os.fork()
    except OSError as e:
        log("cannot fork (%s): building the dump in this process" % e)
        pid = None
    finally:
        if filters is not None:
            try:
                filters.remove(ignore)
            except ValueError:
                pass
    if pid is None:
        return work()
    if pid == 0:
        code = 3
        try:
            code = work()
        except KeyboardInterrupt:
            code = 130
        except BaseException:
            own_failure(_OUT[0], "building the dump")
        finally:
            try:
                sys.stderr.flush()
            finally:
                os._exit(code)
    interrupted = False
    while True:
        try:
            _, wait_status = os.waitpid(pid, 0)
            break
        except KeyboardInterrupt:
            if not interrupted:
                interrupted = True
                try:
                    os.kill(pid, 2)   # SIGINT, for a Ctrl-C sent to this process alone
                except OSError:
                    pass
    code = os.waitstatus_to_exitcode(wait_status)
    if interrupted or code in (130, -2):
        raise KeyboardInterrupt
    if code < 0:
        log("the process writing the dump was killed by signal %d" % -code)
        return 3
    return code


