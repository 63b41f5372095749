"""`make install` (cmake --install) puts the package where python3 finds it
under the prefix, and the installed package finds the installed library
and augur command by itself (no AUGUR_LIB, AUGUR_BIN, PATH)."""

import os
import subprocess
import sys

from conftest import env


def test_installed_package_finds_its_library(tmp_path, stencil):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", env("AUGUR_BUILD"), "--prefix", str(prefix)],
                   check=True, stdout=subprocess.DEVNULL)
    site = prefix / "lib" / "python3" / "dist-packages"
    assert (site / "augur" / "_config.py").is_file()
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("AUGUR_")}
    run_env["PYTHONPATH"] = str(site)
    run_env["PATH"] = "/usr/bin:/bin"
    code = ("import augur, sys; t = augur.open(sys.argv[1]); "
            "print(augur.lib_path); print(len(t.to_pandas())); "
            "print(t.simulate()['predicted_seconds'] > 0)")
    p = subprocess.run([sys.executable, "-c", code, stencil], env=run_env, cwd=str(tmp_path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert p.returncode == 0, p.stderr.decode()
    lib, n, sim = p.stdout.decode().split()
    assert os.path.realpath(lib).startswith(str(prefix)), lib
    import augur
    assert int(n) == len(augur.open(stencil).to_numpy())
    assert sim == "True"
