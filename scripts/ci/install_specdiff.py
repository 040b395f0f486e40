#!/usr/bin/env python3
"""How the specdiff pull-request action (action.yml) installs specdiff, so the tests can run it too.

  install_specdiff.py ACTION_PATH VENV
      creates the virtual environment VENV with the Python running this script (the one the
      action set up; never the user's project environment), installs specdiff into it with pip
      and prints the path of the `specdiff` executable (also written as `path=` to
      $GITHUB_OUTPUT when that is set)
      env SPECDIFF_INSTALL_FROM  `pypi` (default): `pip install specdiff==VERSION`, the released
                                 wheel; `source`: `pip install ACTION_PATH`, a wheel built with
                                 maturin from the action's own checkout (needs a Rust toolchain)
      env SPECDIFF_VERSION       the version for `pypi`; empty: the version of ACTION_PATH
                                 (`[workspace.package] version` of its Cargo.toml)

pip is run with the environment it inherits, so pip's own settings (PIP_INDEX_URL, ...) apply;
the tests install from a folder of freshly built wheels that way. Errors are one line, exit 2.
"""

import os
import pathlib
import re
import subprocess
import sys
import tomllib
import venv

# PEP 440 public versions, as released: 1.2.3, 1.2.3rc1, 1.2.3.post1, 1.2.3.dev4. A Cargo
# pre-release (0.2.0-rc.1) is spelled otherwise on PyPI: such a checkout names its release with
# specdiff-version.
VERSION = re.compile(r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?")


class Failure(Exception):
    pass


def checkout_version(action_path: pathlib.Path) -> str:
    manifest = action_path / "Cargo.toml"
    try:
        cargo = tomllib.loads(manifest.read_text())
        version = cargo["workspace"]["package"]["version"]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as e:
        raise Failure(f"{manifest}: no [workspace.package] version ({e})") from None
    return str(version)


def requirement(action_path: pathlib.Path) -> str:
    source = os.environ.get("SPECDIFF_INSTALL_FROM", "") or "pypi"
    wanted = os.environ.get("SPECDIFF_VERSION", "").strip()
    if source == "source":
        if wanted:
            raise Failure(f"specdiff-version {wanted!r} applies to install-from: pypi only; install-from: source builds {action_path}")
        return str(action_path)
    if source != "pypi":
        raise Failure(f"install-from {source!r}: expected pypi or source")
    version = wanted or checkout_version(action_path)
    if not VERSION.fullmatch(version):
        raise Failure(f"specdiff-version {version!r}: not a released version number (like 0.1.0); set specdiff-version")
    return f"specdiff=={version}"


def install(action_path: pathlib.Path, env_dir: pathlib.Path) -> pathlib.Path:
    req = requirement(action_path)
    venv.create(env_dir, with_pip=True, clear=True)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--disable-pip-version-check", req]
    if subprocess.run(pip, stdout=sys.stderr).returncode != 0:
        if req.startswith("specdiff=="):
            raise Failure(
                f"pip could not install {req} from the package index (is that version released on PyPI?); "
                "set specdiff-version to a released one, or install-from: source to build this action's checkout"
            )
        raise Failure(f"pip could not build and install specdiff from {req}")
    exe = bin_dir / ("specdiff.exe" if os.name == "nt" else "specdiff")
    if not exe.is_file():
        raise Failure(f"pip installed {req}, but {exe} is missing")
    return exe


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        exe = install(pathlib.Path(argv[0]).resolve(), pathlib.Path(argv[1]))
    except Failure as e:
        print(f"install_specdiff: {e}", file=sys.stderr)
        return 2
    print(exe)
    if output := os.environ.get("GITHUB_OUTPUT"):
        with open(output, "a") as f:
            f.write(f"path={exe}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
