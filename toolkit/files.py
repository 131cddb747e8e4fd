"""Atomic writes: a reader, or a run that fails half-way, never sees a
half-written file (write_text_atomic) or a half-replaced folder
(replace_folder)."""
from __future__ import annotations

import ctypes
import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Callable, Optional


def _umask() -> int:
    """The process's umask (reading it means setting it, so set it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and
    os.replace, so the file holds either its old or its new content."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        # mkstemp makes the file private; give it the mode the file had, or
        # the usual one for a new file.
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class FolderError(Exception):
    """A folder the writer will not replace; the message is one line."""


RENAME_EXCHANGE = 2     # renameat2 flag (Linux 3.15+): swap two paths atomically
AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap the folders a and b in one step (renameat2 RENAME_EXCHANGE);
    False where the system or the file system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _existing(folder: Path) -> dict[str, bytes]:
    """Relative path -> bytes of every file under folder (FolderError for
    anything that is neither a file nor a folder, such as a symbolic link)."""
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            raise FolderError(f"{folder}: holds {rel}, which is not a regular file; nothing written")
        if path.is_file():
            out[rel] = path.read_bytes()
    return out


def check_replaceable(target: Path, files: dict[str, str], owned: set[str]) -> bool:
    """Whether target already holds exactly `files` (nothing to do).
    FolderError if target is not a folder, or holds a file that is not in
    `owned` (the writer never removes what it did not write)."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise FolderError(f"{target}: exists and is not a folder; nothing written")
    if not target.exists():
        return False
    existing = _existing(target)
    folders = {p.parent.as_posix() for p in map(Path, owned)} - {"."}
    foreign = sorted(p for p in existing if p not in owned)
    foreign += sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                      if p.is_dir() and p.relative_to(target).as_posix() not in folders)
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise FolderError(f"{target}: holds files this tool did not write ({shown}); "
                          "move them away or choose another folder; nothing written")
    return existing == {k: v.encode("utf-8") for k, v in files.items()}


def _fill(folder: Path, files: dict[str, str]) -> None:
    """Write `files` under folder with the usual permissions (0644 and 0755
    under a 022 umask), each flushed to disk."""
    os.chmod(folder, 0o777 & ~_umask())
    for rel, text in sorted(files.items()):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def _swap_by_renames(fresh: Path, target: Path) -> None:
    """Where no atomic exchange exists: the old folder moves aside, the new
    one in; if that fails the old one moves back (and if even that fails,
    it is left whole in the hidden .<name>.old-* folder)."""
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    try:
        os.rename(target, old / target.name)
    except OSError:
        old.rmdir()
        raise
    try:
        os.rename(fresh, target)
    except OSError:
        os.rename(old / target.name, target)
        old.rmdir()
        raise
    shutil.rmtree(old)


def replace_folder(target: Path, files: dict[str, str], owned: set[str],
                   check: Optional[Callable[[Path], None]] = None) -> bool:
    """Make folder `target` hold exactly `files` (relative path -> text),
    all or nothing: they are written to a new sibling folder, `check` (if
    given) runs on it, and it takes target's place in one rename, so that
    an error or an interruption at any point leaves the old folder whole or
    the new one complete.  Refuses (FolderError) a target holding anything
    outside `owned`.  Returns False when target already held `files`
    (nothing is written then).  OSError passes through."""
    target = Path(target)
    if target.parent.exists() and not target.parent.is_dir():
        raise FolderError(f"{target.parent}: exists and is not a folder; nothing written")
    if check_replaceable(target, files, owned):
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        _fill(fresh, files)
        if check is not None:
            check(fresh)
        if not target.exists():
            os.rename(fresh, target)
        elif _exchange(fresh, target):
            shutil.rmtree(fresh)            # now the old folder
        else:
            _swap_by_renames(fresh, target)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return True
