"""Reading a build folder as untrusted input, as democ's own build_dir does: every file
is reached from the folder one name at a time without following a symlink, must be a
regular file (no FIFO to wait on, no device to read forever), and is read only up to a
cap. A config symlinked to a private file is refused, never printed or sent."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

# The cap on one file the shim reads (a switch's IR or config, the manifest, cabling).
MAX_BYTES = 64 * 1024 * 1024


class UnsafeFile(Exception):
    """A file of the build that may not be read (why, with its path)."""


def _parts(rel: str) -> list[str]:
    p = PurePosixPath(rel)
    if p.is_absolute() or not p.parts or any(part in ("..", ".", "") for part in p.parts):
        raise UnsafeFile(f"`{rel}` is not a plain path inside the build")
    return list(p.parts)


def _open_dir(build: Path, folders: list[str]) -> int:
    fd = os.open(build, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in folders:
            nxt = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except OSError:
        os.close(fd)
        raise
    return fd


def _explain(build: Path, rel: str, e: OSError) -> UnsafeFile:
    import errno

    if e.errno in (errno.ELOOP, errno.ENOTDIR):
        why = "reached through a symlink; nothing in a build folder is read through one"
    else:
        why = e.strerror or str(e)
    return UnsafeFile(f"{build}/{rel}: {why}")


def read_bytes(build: Path, rel: str, limit: int = MAX_BYTES) -> bytes:
    parts = _parts(rel)
    try:
        d = _open_dir(build, parts[:-1])
        try:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY, dir_fd=d)
        finally:
            os.close(d)
    except OSError as e:
        raise _explain(build, rel, e) from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise UnsafeFile(f"{build}/{rel}: not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UnsafeFile(f"{build}/{rel}: larger than {limit >> 20} MiB")
    return data


def read_text(build: Path, rel: str, limit: int = MAX_BYTES) -> str:
    try:
        return read_bytes(build, rel, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise UnsafeFile(f"{build}/{rel}: not UTF-8 text") from None


def files_in(build: Path, rel: str) -> list[str]:
    """The regular files directly in folder `rel` (names, sorted), none a symlink."""
    try:
        d = _open_dir(build, _parts(rel))
    except FileNotFoundError:
        return []
    except OSError as e:
        raise _explain(build, rel, e) from None
    try:
        with os.scandir(d) as it:
            return sorted(e.name for e in it if e.is_file(follow_symlinks=False))
    finally:
        os.close(d)
