# ---------------------------------------------------------------------------------------------
# 4. Sampling thread: hotness and churn
#
# Owns: `Sampler`, the thread that samples sys._current_frames() while the program runs
# (self, total and per-line hits per code object; the code objects seen on stacks) and
# looks at the opcodes of sampled code for churn; the GIL switch interval while it runs; its
# mode and note in the dump ("thread", "off", "unavailable"). Pyodide has no threads: there
# scripts/python-pyodide provides timer ticks (module `_specdiff_ticks`), delivered as a
# SIGPROF (the profiling timer's signal, which programs leave alone) whose handler samples the
# frame it interrupts (mode "signal").

# The filenames of the interpreter's import machinery (frozen in CPython 3.11+).
IMPORTLIB_FILES = ("<frozen importlib._bootstrap",)


def _deoptimized(raw, offs, counted):
    """3.11: indices of the sites a first look finds deoptimized, `*_ADAPTIVE` with the counter
    a 53rd miss leaves (backoff 5, counting down from 31: word 501 on 3.11.7, where a site that
    has not run yet shows 0). Only a site whose attempts failed exactly five times looks the
    same. Without this, a site seen adaptive and then specialized reads as warming up."""
    if _T.v != (3, 11):
        return set()
    name, little = _T.name, sys.byteorder == "little"
    found = set()
    for n in counted:
        o = offs[n]
        if name[raw[o]].endswith("_ADAPTIVE"):
            w = raw[o + 2] + 256 * raw[o + 3] if little else 256 * raw[o + 2] + raw[o + 3]
            if w & 15 == 5 and w >> 4 <= 31:
                found.add(n)
    return found


class ThreadCPU:
    """Each thread's CPU clock, so that a look counts a thread only when it ran since its last
    look. A wall-clock look also counts a thread that waited: for I/O, a lock, or a core on a
    busy machine. With two fuzzers on both cores, the sample counts of repeated runs of one
    program then went from 71 to 171, and their shares differed far more than sampling explains
    (bench/sampler_clock.py; docs/engine.md, "Noise floor"). Where the platform has no
    per-thread CPU clock (`time.pthread_getcpuclockid`: not on macOS or Windows), or a clock
    cannot be read, every look counts, as on the wall clock."""

    def __init__(self, min_used):
        self.available = hasattr(time, "pthread_getcpuclockid")
        self.min_used = min_used
        self.clocks, self.last = {}, {}

    def ran(self, tid):
        """True when thread `tid` used `min_used` seconds of CPU since its last look, on its
        first look, and when that cannot be told."""
        if not self.available:
            return True
        try:
            clock = self.clocks.get(tid)
            if clock is None:
                clock = self.clocks[tid] = time.pthread_getcpuclockid(tid)
            used = time.clock_gettime(clock)
        except (OSError, ValueError, OverflowError):
            self.clocks.pop(tid, None)
            self.last.pop(tid, None)
            return True
        before = self.last.get(tid)
        self.last[tid] = used
        return before is None or used - before >= self.min_used

    def keep_only(self, tids):
        """Forgets the threads that ended (their ids can be reused)."""
        for tid in [t for t in self.clocks if t not in tids]:
            del self.clocks[tid]
            self.last.pop(tid, None)


class Sampler:
    def __init__(self, interval_ms):
        self.interval = interval_ms / 1000.0
        self.mode, self.note, self.samples = "off", None, 0
        self.stop = False
        self.self_hits, self.total_hits, self.line_hits, self.codes = {}, {}, {}, {}
        # Per code object: samples taken while a module was being imported (an importlib
        # frame on the stack), so code that only ever ran inside imports is known as such.
        self.import_hits = {}
        self.churn_getter, self.churn_last, self.churn_time, self.churn = {}, {}, {}, {}
        self.churn_offsets = {}
        self._done = None
        self._old_switch = None
        self._ticks = self._old_handler = self._cpu = None
        self._in_tick = False

    def start(self):
        if sys.platform == "emscripten":
            self._start_ticks()
            return
        try:
            self._done = _thread.allocate_lock()
            self._done.acquire()
            self._old_switch = sys.getswitchinterval()
            # The thread waits for the GIL after each sleep until the program's thread is asked
            # to drop it, one switch interval later: at a switch interval equal to the sampling
            # interval half of each period went to that wait (~400 samples a second at 1 ms).
            sys.setswitchinterval(min(self._old_switch, self.interval / SWITCH_SHARE))
            self._cpu = ThreadCPU(self.interval / CPU_LOOK_SHARE)
            _thread.start_new_thread(self._run, ())
            self.mode = "thread"
            self.note = ("CPU clock: a look counts a thread that used a quarter interval of CPU since its last look"
                         if self._cpu.available else "wall clock: no per-thread CPU clock here")
        except Exception as e:
            self.mode, self.note = "unavailable", "cannot start a thread: %s" % e
            if self._old_switch is not None:
                sys.setswitchinterval(self._old_switch)

    def _start_ticks(self):
        try:
            import _specdiff_ticks   # only under scripts/python-pyodide
            import signal
            self._old_handler = signal.signal(signal.SIGPROF, self._tick)
            _specdiff_ticks.start(max(1, round(self.interval * 1000)), int(signal.SIGPROF))
            self._ticks = _specdiff_ticks
            self.mode = "signal"
            self.note = "no threads on emscripten: timer ticks from python-pyodide, as SIGPROF"
        except Exception as e:
            self.mode, self.note = "unavailable", "no threads on emscripten (pyodide): %s" % e

    def _tick(self, signum, frame):
        # A tick can arrive while the handler of the last one still runs (CPython runs Python
        # signal handlers between any two bytecodes, its own included): a nested look would
        # find the churn state half-updated.
        if self.stop or self._in_tick:
            return
        self._in_tick = True
        try:
            self.sample(frame, time.perf_counter())
        except Exception as e:   # never take the program down
            log("sampler tick failed: %r" % (e,))
        finally:
            self._in_tick = False

    @property
    def sampling(self):
        """Started: a thread, or timer ticks under pyodide."""
        return self.mode in ("thread", "signal")

    def running(self):
        return self.sampling and not self.stop

    def forked(self):
        """In a child the program forked: the thread did not come along."""
        self.mode, self.note = "off", "forked child"

    def finish(self):
        """Stop the thread (or the ticks), as soon as the program is done."""
        if self.mode == "signal":
            import signal
            self.stop = True
            self._ticks.stop()
            if signal.getsignal(signal.SIGPROF) != self._tick:   # (a new bound method each time)
                self.note += "; the program replaced the SIGPROF handler, so sampling stopped then"
            else:
                signal.signal(signal.SIGPROF, self._old_handler)
            return
        if self.mode != "thread":
            return
        self.stop = True
        self._done.acquire(timeout=2.0)
        sys.setswitchinterval(self._old_switch)

    def last_look(self):
        """One last churn look at every sampled code object, so late flips count too."""
        if not self.sampling:
            return
        for key, code in self.codes.items():
            try:
                self.check_churn(key, code)
            except Exception as e:   # a lost look must not cost the dump
                log("last churn look at %s failed: %r" % (code.co_qualname, e))

    def _run(self):
        me = _thread.get_ident()
        interval, floor, cpu = self.interval, self.interval / SLEEP_FLOOR_SHARE, self._cpu
        try:
            due = time.perf_counter()
            while not self.stop:
                # A fixed rate: the next look is due one interval after the last was due, so
                # the wait for the GIL and the look itself do not stretch the period; but the
                # thread always sleeps a little, so a slow look cannot starve the program.
                due += interval
                now = time.perf_counter()
                time.sleep(max(due - now, floor))
                now = time.perf_counter()
                if now > due + interval:
                    due = now   # fell behind (a long look, a loaded machine): no catching up
                frames = sys._current_frames()
                for tid, frame in frames.items():
                    if tid != me and cpu.ran(tid):
                        self.sample(frame, now)
                if len(cpu.clocks) > len(frames) + 16:
                    cpu.keep_only(frames)
        except Exception as e:   # never take the program down
            log("sampler stopped: %r" % (e,))
        finally:
            self._done.release()

    def sample(self, frame, now):
        self_hits, total_hits, codes = self.self_hits, self.total_hits, self.codes
        top, seen, importing = True, set(), False
        while frame is not None:
            code = frame.f_code
            if not importing and code.co_filename.startswith(IMPORTLIB_FILES):
                importing = True
            if code.co_filename != SELF_FILE:
                key = id(code)
                if top:
                    top = False
                    self_hits[key] = self_hits.get(key, 0) + 1
                    line = frame.f_lineno
                    if line is not None:
                        lk = (key, line)
                        self.line_hits[lk] = self.line_hits.get(lk, 0) + 1
                if key not in seen:
                    seen.add(key)
                    total_hits[key] = total_hits.get(key, 0) + 1
                    codes[key] = code
                    if now - self.churn_time.get(key, -1.0) >= CHURN_EVERY_S:
                        self.churn_time[key] = now
                        self.check_churn(key, code)
            frame = frame.f_back
        if not top:
            self.samples += 1
        if importing:
            import_hits = self.import_hits
            for key in seen:
                import_hits[key] = import_hits.get(key, 0) + 1

    def check_churn(self, key, code):
        """Counts the re-specializations of each site since the last look: an opcode that
        changed, or a specialized opcode whose miss counter went back up (3.12+ re-specializes
        in place after its 53rd miss, often to the same opname; 3.11 can go through
        *_ADAPTIVE and back between two looks). Counters of specialized sites only go down
        otherwise, so a higher counter word is proof of a re-specialization."""
        raw = code._co_code_adaptive
        state = self.churn_offsets.get(key)
        if state is None:
            offs = instruction_offsets(code)
            if len(offs) < 2:
                return
            counter = _T.counter
            self.churn_getter[key] = itemgetter(*offs)
            # Instruction indices of the sites with an adaptive counter in their first cache word.
            counted = [n for n, o in enumerate(offs) if counter[code.co_code[o]] == "adaptive"]
            state = self.churn_offsets[key] = [offs, counted, None, (), _deoptimized(raw, offs, counted)]
        offs, counted = state[0], state[1]
        ops = self.churn_getter[key](raw)
        last = self.churn_last.get(key)
        self.churn_last[key] = ops
        sites = None
        if last is not None and last != ops:
            deoptimized = state[4]
            for idx in range(len(offs)):
                a, b = last[idx], ops[idx]
                if a != b:
                    if idx in deoptimized:
                        # Its first look found it deoptimized: the specialization before that
                        # is proven, so re-specializing now is not a warm-up.
                        deoptimized.discard(idx)
                        sites = self._flip(key, sites, offs[idx], a, a)
                    sites = self._flip(key, sites, offs[idx], a, b)
        if last is None or last != ops or state[2] is None:
            # Watch the counters of the sites specialized now (a fast C-level comparison while
            # nothing misses); what they showed before a flip is not comparable.
            specialized = _T.specialized
            watched = [n for n in counted if specialized[ops[n]]]
            state[2] = (watched, itemgetter(*[offs[n] + b for n in watched for b in (2, 3)]) if watched else None)
            state[3] = state[2][1](raw) if watched else ()
            return
        watched, getter = state[2]
        if getter is None:
            return
        words = getter(raw)
        before, state[3] = state[3], words
        if words == before:
            return
        hi, lo = (1, 0) if sys.byteorder == "little" else (0, 1)
        for k, n in enumerate(watched):
            j = 2 * k
            if words[j + hi] * 256 + words[j + lo] > before[j + hi] * 256 + before[j + lo]:
                sites = self._flip(key, sites, offs[n], ops[n], ops[n])

    def _flip(self, key, sites, offset, a, b):
        if sites is None:
            sites = self.churn.setdefault(key, {})   # offset -> [flips, opcodes seen]
        site = sites.get(offset)
        if site is None:
            site = sites[offset] = [0, [a]]
        site[0] += 1
        if b not in site[1]:
            site[1].append(b)
        return sites


