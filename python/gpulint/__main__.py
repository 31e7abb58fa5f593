"""`python -m gpulint ARGS`: runs the gpulint program installed with this package."""
import os
import shutil
import site
import sys
import sysconfig


def _program():
    """The installed gpulint binary: in the scripts folder of the scheme this
    package was installed with (a virtual environment, --user, the system),
    else on PATH."""
    folders = [sysconfig.get_path("scripts")]
    if site.ENABLE_USER_SITE:
        folders.append(sysconfig.get_path("scripts", f"{os.name}_user"))
    for folder in folders:
        candidate = os.path.join(folder, "gpulint")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("gpulint")


def main():
    program = _program()
    if not program:
        sys.exit("gpulint: the gpulint program is not installed beside this package")
    os.execv(program, [program, *sys.argv[1:]])


if __name__ == "__main__":
    main()
