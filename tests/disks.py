"""Disks that fail for real, for the outage tests: a small tmpfs filled to its last byte, and
files made read-only under an open database (the immutable flag, which holds for root too and
for a file already open for writing). Both need root: without it a test skips, unless CI is
set, where it fails (CI runs as root)."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FILLER = "filler"


def need_root(what: str) -> None:
    """Skip politely without root, or fail under CI, which must run these tests."""
    if os.geteuid() == 0:
        return
    message = f"{what} needs root"
    if os.environ.get("CI"):
        pytest.fail(f"{message}, and CI runs as root")
    pytest.skip(message)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "4m") -> Iterator[Path]:
    """A tmpfs of `size` mounted on `folder` (created), unmounted afterwards."""
    need_root("mounting a tmpfs")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        check=True,
        capture_output=True,
    )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True, capture_output=True)


def fill(folder: Path) -> Path:
    """Fill `folder`'s file system to its last byte with one file, and return it: pages while
    they fit, then single bytes until the disk refuses one."""
    filler = folder / FILLER
    with open(filler, "ab", buffering=0) as out:
        for chunk in (1 << 20, 1 << 12, 1):
            while True:
                try:
                    out.write(b"\0" * chunk)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
    assert os.statvfs(folder).f_bavail == 0, "the disk still has room"
    return filler


def set_immutable(on: bool, *files: Path) -> None:
    """Set or clear the immutable flag: an immutable file can't be written, even through a
    descriptor opened before, even by root (`chattr +i`)."""
    flag = "+i" if on else "-i"
    subprocess.run(["chattr", flag, *map(str, files)], check=True, capture_output=True)


@contextlib.contextmanager
def read_only(*files: Path) -> Iterator[None]:
    """`files` made read-only for as long as this lasts, under whatever holds them open."""
    need_root("making a file immutable")
    if not enforces_immutable(files[0].parent):
        message = f"{files[0].parent}'s file system lets an open file be written when immutable"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    set_immutable(True, *files)
    try:
        yield
    finally:
        set_immutable(False, *files)


def enforces_immutable(folder: Path) -> bool:
    """Whether writing a file open for writing fails once it is made immutable (ext4 and xfs
    refuse it; tmpfs, on the kernels tried, does not)."""
    probe = folder / "immutable-probe"
    with open(probe, "wb", buffering=0) as out:
        try:
            set_immutable(True, probe)
        except subprocess.CalledProcessError:
            return False  # the file system has no such flag
        try:
            out.write(b"x")
        except PermissionError:
            return True
        finally:
            set_immutable(False, probe)
            probe.unlink()
    return False
