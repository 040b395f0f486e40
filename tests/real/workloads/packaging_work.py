"""packaging workload: what a resolver or installer does with metadata — parse and sort
many version strings (PEP 440: epochs, pre/post/dev, local), test them against specifier
sets, filter candidate lists, parse requirement strings with extras and markers, evaluate
markers against fixed environments, and canonicalise names and wheel filenames.
Deterministic (markers get explicit environments); prints a CRC32."""

import zlib

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

SUFFIXES = ["", "a1", "b2", "rc1", ".post1", ".dev3", "+local.7", ".post2.dev1", "rc2+ubuntu1"]
VERSIONS = [f"{major}.{minor}.{patch}{SUFFIXES[(major + minor + patch) % len(SUFFIXES)]}"
            for major in range(4) for minor in range(12) for patch in range(0, 9, 2)]
VERSIONS += [f"1!{v}" for v in VERSIONS[:40]] + ["2024.1", "0.0.1", "1.0", "1.0.0.0.0"]

SPECS = [">=1.2,<3", "~=2.4", "==1.*", "!=2.0.*,>=1.0", ">1.5a1,<=3.2", "===2.4.0",
         "~=1.4.2,!=1.4.6", "<2.0.dev0", ">=0.5,<0.9,!=0.7.*", "==3.10.4+local.7"]

ENVS = []
for py in ("3.8", "3.10", "3.12", "3.13"):
    for plat in ("linux", "win32", "darwin"):
        ENVS.append({
            "implementation_name": "cpython", "implementation_version": py + ".1",
            "os_name": "nt" if plat == "win32" else "posix", "platform_machine": "x86_64",
            "platform_release": "6.1.0", "platform_system": {"linux": "Linux", "win32": "Windows",
                                                             "darwin": "Darwin"}[plat],
            "platform_version": "#1 SMP", "python_full_version": py + ".1",
            "platform_python_implementation": "CPython", "python_version": py,
            "sys_platform": plat, "extra": "test",
        })

REQS = [
    'requests[socks,security]>=2.28,<3; python_version >= "3.8"',
    'numpy>=1.22; platform_machine == "x86_64" and sys_platform != "win32"',
    'pywin32>=300; sys_platform == "win32"',
    'importlib-metadata>=4.6; python_version < "3.10"',
    'pytest>=7.0; extra == "test"',
    "Django.Rest_Framework ~= 3.14",
    'uvloop!=0.15.0,>=0.14; (sys_platform != "win32" and implementation_name == "cpython")',
    "pkg @ https://example.org/pkg-1.0.tar.gz",
    'typing_extensions>=4; python_version < "3.11" or platform_python_implementation == "PyPy"',
]

crc = 0
count = 0
for rnd in range(5):
    parsed = [Version(v) for v in VERSIONS]
    ordered = sorted(parsed)
    crc = zlib.crc32(" ".join(str(v) for v in ordered).encode(), crc)
    crc = zlib.crc32(" ".join(v.public + str(v.is_prerelease) for v in ordered[::7]).encode(), crc)
    for spec in SPECS:
        s = SpecifierSet(spec)
        hits = [v for v in VERSIONS if s.contains(v, prereleases=True)]
        count += len(hits)
        crc = zlib.crc32(",".join(str(v) for v in s.filter(parsed)).encode(), crc)
        count += sum(1 for v in parsed if v in s)
    for text in REQS * 3:
        req = Requirement(text)
        crc = zlib.crc32(str(req).encode(), crc)
        name = canonicalize_name(req.name)
        if req.marker is not None:
            for env in ENVS:
                count += req.marker.evaluate(env)
        crc = zlib.crc32(name.encode(), crc)
    for k in range(60):
        m = Marker(f'python_version >= "3.{k % 14}" and (os_name == "posix" or extra == "e{k}")')
        count += sum(m.evaluate(env) for env in ENVS)
    for k, v in enumerate(VERSIONS[:80]):
        if "+" in v or "!" in v:
            continue
        fname = f"Some_Pkg.name{k}-{v}-py3-none-any.whl"
        name, ver, build, tags = parse_wheel_filename(fname)
        crc = zlib.crc32(f"{name}{ver}{len(tags)}".encode(), crc)
print(f"packaging: {count} matches, crc {crc:08x}")
