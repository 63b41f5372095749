#!/usr/bin/env python3
"""dist/spack/package.py against the build it packages (docs/install.md "Spack"),
read with ast (no Spack needed):

  - a class Augur(CMakePackage) with a version and the variants it uses;
  - cmake_args: each define_from_variant("OPT", "v") names an option() of
    the CMake files, and the variant's default is that option's default, so
    the default spec builds as the Makefile's build (which sets no option);
    any -DNAME=VALUE the Makefile's configure line passes is set the same;
    the build_type variant defaults to the Makefile's CMAKE_BUILD_TYPE;
  - depends_on: every dependency the CMake files REQUIRE (pkg_check_modules
    / find_package ... REQUIRED) and the ones the brief names (mpi, zstd,
    xxhash, jansson, elfutils, hwloc), under their Spack names.

Usage: spack.py SOURCE_DIR     prints one line per failure, exit 1 on any."""
import ast
import glob
import os
import re
import sys

# pkg-config module / CMake package -> the Spack package providing it.
SPACK_NAME = {
    "libzstd": "zstd", "libxxhash": "xxhash", "jansson": "jansson", "libdw": "elfutils",
    "libelf": "elfutils", "hwloc": "hwloc", "inih": "libinih", "sqlite3": "sqlite",
    "OpenSSL": "openssl", "PkgConfig": "pkgconfig", "Threads": None, "Python3": "python",
}
WANT = {"mpi", "zstd", "xxhash", "jansson", "elfutils", "hwloc"}


def strarg(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def kwarg(call, name):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def main():
    src = sys.argv[1]
    fails = []
    tree = ast.parse(open(os.path.join(src, "dist/spack/package.py"), encoding="utf-8").read())
    classes = [c for c in tree.body if isinstance(c, ast.ClassDef) and c.name == "Augur"]
    if not classes or not any(getattr(b, "id", "") == "CMakePackage" for b in classes[0].bases):
        print("FAIL: package.py has no class Augur(CMakePackage)")
        return 1
    cls = classes[0]
    calls = [n.value for n in cls.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    variants, depends, versions = {}, set(), 0
    for c in calls:
        fn = getattr(c.func, "id", "")
        if fn == "variant":
            d = kwarg(c, "default")
            variants[strarg(c.args[0])] = d.value if isinstance(d, ast.Constant) else None
        elif fn == "depends_on":
            depends.add(re.split(r"[@+~ ^]", strarg(c.args[0]))[0])
        elif fn == "version":
            versions += 1
    if not versions:
        fails.append("no version()")

    # The CMake files: options with their defaults, REQUIRED dependencies.
    cmake_text = ""
    for f in [os.path.join(src, "CMakeLists.txt")] + sorted(
            glob.glob(os.path.join(src, "src/**/CMakeLists.txt"), recursive=True)) + sorted(
            glob.glob(os.path.join(src, "cmake/*.cmake"))):
        cmake_text += open(f, encoding="utf-8").read() + "\n"
    options = {m.group(1): m.group(2) == "ON"
               for m in re.finditer(r'^\s*option\((\w+)\s+"[^"]*"\s+(ON|OFF)\)', cmake_text, re.M)}
    required = set(re.findall(r"pkg_check_modules\(\w+\s+REQUIRED\s+(?:IMPORTED_TARGET\s+)?(\S+?)\)",
                               cmake_text))
    required |= set(re.findall(r"find_package\((\w+)\s+REQUIRED", cmake_text))
    need = set(WANT)
    for r in sorted(required):
        if r not in SPACK_NAME:
            fails.append(f"the CMake files require {r}: add its Spack name to tests/install/spack.py "
                         "and a depends_on to package.py")
        elif SPACK_NAME[r]:
            need.add(SPACK_NAME[r])
    for n in sorted(need - depends):
        fails.append(f"no depends_on(\"{n}\")")

    # cmake_args against the options and the Makefile's configure line.
    args_fn = [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "cmake_args"]
    if not args_fn:
        fails.append("no cmake_args()")
        defined = {}
    else:
        defined = {}
        for n in ast.walk(args_fn[0]):
            if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "define_from_variant":
                defined[strarg(n.args[0])] = ("variant", strarg(n.args[1]))
            elif isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "define" and \
                    strarg(n.args[0]):
                v = n.args[1]
                defined[strarg(n.args[0])] = ("value", v.value if isinstance(v, ast.Constant) else v)
    if not defined:
        fails.append("cmake_args sets no option")
    for opt, (kind, v) in sorted(defined.items()):
        if kind != "variant":
            continue
        if opt not in options:
            fails.append(f"cmake_args sets {opt}, not an option() of the CMake files")
        elif v not in variants:
            fails.append(f"cmake_args: {opt} from variant '{v}', which package.py does not declare")
        elif variants[v] != options[opt]:
            fails.append(f"variant {v} defaults to {variants[v]}, option {opt} to "
                         f"{'ON' if options[opt] else 'OFF'}: the default spec is not the Makefile's build")
    make = open(os.path.join(src, "Makefile"), encoding="utf-8").read()
    line = re.search(r"^\$\(BUILD\)/CMakeCache\.txt:.*\n\t(cmake .*)$", make, re.M)
    if not line:
        fails.append("the Makefile has no configure line ($(BUILD)/CMakeCache.txt rule)")
    else:
        for name, value in re.findall(r"-D(\w+)=(\S+)", line.group(1)):
            if name == "CMAKE_BUILD_TYPE":
                if variants.get("build_type") != value:
                    fails.append(f"build_type defaults to {variants.get('build_type')}, "
                                 f"the Makefile builds {value}")
            elif name not in defined:
                fails.append(f"the Makefile sets -D{name}={value}, cmake_args does not")
    for f in fails:
        print("FAIL: dist/spack/package.py: " + f)
    if not fails:
        print(f"spack: class Augur(CMakePackage), {len(depends)} depends_on, "
              f"{len(defined)} cmake_args match CMakeLists.txt and the Makefile")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
