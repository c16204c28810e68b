"""The ``aifcheck`` command and ``python -m aifcheck``. ``--version`` is answered before the
command line's libraries are imported (scripts and editors ask it often); the rest is aifcheck.cli."""

import sys


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        from aifcheck.version import __version__

        print(f"aifcheck {__version__}")
        return
    from aifcheck.cli import main as run

    run()


if __name__ == "__main__":
    main()
