"""`file`: GNU file 5.44's wording for the formats models meet (images, PDF,
archives, Office documents, ELF, SQLite, scripts, and text with its encoding and line ends)."""

import json
import os
import re
import time
from typing import Literal

from cove_guest.shell.io import Context
from cove_guest.text.errors import UsageError, os_message
from cove_guest.text.inputs import decode
from cove_guest.text.options import parse_options


def file(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(
        args, "bLiEk", long_map={"brief": "b", "mime": "i", "mime-type": "T", "dereference": "L"}
    )
    if not names:
        raise UsageError("Usage: file [-bLi] [--mime-type] file ...")
    width = max(len(n) for n in names) + 1
    status = 0
    for name in names:
        desc, mime = _file_kind(name, "L" in on)
        if desc.startswith("cannot open") and "E" in on:
            status = 1
        shown = mime.split(";")[0] if "T" in on else mime if "i" in on else desc
        ctx.out.write(shown + "\n" if "b" in on else f"{name + ':':<{width}} {shown}\n")
    return status


_FILE_SCRIPTS = {
    "python": ("Python script, {} executable", "text/x-script.python"),
    "bash": ("Bourne-Again shell script, {} executable", "text/x-shellscript"),
    "sh": ("POSIX shell script, {} executable", "text/x-shellscript"),
    "dash": ("POSIX shell script, {} executable", "text/x-shellscript"),
    "zsh": ("Paul Falstad's zsh script, {} executable", "text/x-shellscript"),
    "node": ("Node.js script executable, {}", "application/javascript"),
    "perl": ("Perl script text executable", "text/x-perl"),
    "ruby": ("Ruby script, {} executable", "text/x-ruby"),
}


# (description, mime type), as `file` and `file -i` print them.
_Kind = tuple[str, str]


def _file_kind(name: str, follow: bool = False) -> _Kind:
    """(description, mime type) as GNU file 5.44 reports them for the common kinds."""
    try:
        if os.path.islink(name) and not follow:
            return f"symbolic link to {os.readlink(name)}", "inode/symlink; charset=binary"
        if os.path.isdir(name):
            return "directory", "inode/directory; charset=binary"
        with open(name, "rb") as f:
            data = f.read(1 << 16)
    except OSError as exc:
        return f"cannot open `{name}' ({os_message(exc)})", "cannot open"
    if not data:
        return "empty", "inode/x-empty; charset=binary"
    binary = _file_binary(data, name)
    if binary:
        return binary
    return _file_text(data)


def _file_binary(data: bytes, name: str) -> _Kind | None:
    be = int.from_bytes
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        w, h, depth, color, interlace = (
            be(data[16:20], "big"),
            be(data[20:24], "big"),
            data[24],
            data[25],
            data[28],
        )
        kind = {
            0: "grayscale",
            2: "/color RGB",
            3: " colormap",
            4: " gray+alpha",
            6: "/color RGBA",
        }.get(color, "")
        kind = f"{depth}-bit" + (kind if kind.startswith(("/", " ")) else " " + kind)
        return (
            f"PNG image data, {w} x {h}, {kind}, {'interlaced' if interlace else 'non-interlaced'}",
            "image/png; charset=binary",
        )
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return (
            f"GIF image data, version {data[3:6].decode()}, "
            f"{be(data[6:8], 'little')} x {be(data[8:10], 'little')}",
            "image/gif; charset=binary",
        )
    if data.startswith(b"\xff\xd8\xff"):
        return _file_jpeg(data), "image/jpeg; charset=binary"
    if data.startswith(b"%PDF-"):
        version = re.match(rb"%PDF-(\d+\.\d+)", data)
        return (
            f"PDF document, version {version.group(1).decode()}" if version else "PDF document",
            "application/pdf; charset=binary",
        )
    if data.startswith(b"PK\x03\x04"):
        return _file_zip(data)
    if data.startswith(b"\x1f\x8b"):
        with open(name, "rb") as f:
            f.seek(-4, 2)
            size = int.from_bytes(f.read(4), "little")
        return _file_gzip(
            data
        ) + f", original size modulo 2^32 {size}", "application/gzip; charset=binary"
    if data.startswith(b"BZh") and data[3:4].isdigit():
        return (
            f"bzip2 compressed data, block size = {data[3:4].decode()}00k",
            "application/x-bzip2; charset=binary",
        )
    if data.startswith(b"\xfd7zXZ\x00"):
        check = {0: "no check", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}.get(
            data[7] & 0xF, "unknown check"
        )
        return f"XZ compressed data, checksum {check}", "application/x-xz; charset=binary"
    if len(data) >= 265 and data[257:263] in (b"ustar\x00", b"ustar "):
        return (
            "POSIX tar archive (GNU)" if data[257:265] == b"ustar  \x00" else "POSIX tar archive",
            "application/x-tar; charset=binary",
        )
    if data.startswith(b"SQLite format 3\x00") and len(data) >= 100:
        enc = {1: "UTF-8", 2: "UTF-16 little endian", 3: "UTF-16 big endian"}.get(
            be(data[56:60], "big"), ""
        )
        return (
            "SQLite 3.x database, last written using SQLite version "
            f"{be(data[96:100], 'big')}, file counter {be(data[24:28], 'big')}, "
            f"database pages {be(data[28:32], 'big')}, cookie {hex(be(data[40:44], 'big'))}, "
            f"schema {be(data[44:48], 'big')}, {enc}, version-valid-for {be(data[92:96], 'big')}",
            "application/vnd.sqlite3; charset=binary",
        )
    if data.startswith(b"\x7fELF") and len(data) >= 20:
        bits = {1: "32-bit", 2: "64-bit"}.get(data[4], "")
        order: Literal["little", "big"] = "little" if data[5] == 1 else "big"
        etype = be(data[16:18], order)
        kind = {1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}.get(
            etype, "unknown type"
        )
        machine = {
            3: "Intel 80386",
            40: "ARM",
            62: "x86-64",
            183: "ARM aarch64",
            243: "UCB RISC-V",
        }.get(be(data[18:20], order), "unknown arch")
        mime = {1: "x-object", 2: "x-executable", 3: "x-sharedlib", 4: "x-coredump"}.get(
            etype, "octet-stream"
        )
        linking = _file_elf_linking(data, bits == "64-bit", order)
        if etype == 3 and linking.startswith("dynamically linked, interpreter"):
            kind, mime = "pie executable", "x-pie-executable"
        return (
            f"ELF {bits} {'LSB' if order == 'little' else 'MSB'} {kind}, {machine}, "
            f"version {data[6]} (SYSV)" + (f", {linking}" if linking and etype in (2, 3) else ""),
            f"application/{mime}; charset=binary",
        )
    if data.startswith(b"\x00asm"):
        return (
            f"WebAssembly (wasm) binary module version {hex(be(data[4:8], 'little'))}",
            "application/wasm; charset=binary",
        )
    return None


def _file_elf_linking(data: bytes, wide: bool, order: Literal["little", "big"]) -> str:
    """From the program headers: "dynamically linked, interpreter X", "dynamically linked",
    "statically linked"."""
    be = int.from_bytes
    phoff, phentsize, phnum = (
        (be(data[32:40], order), be(data[54:56], order), be(data[56:58], order))
        if wide
        else (be(data[28:32], order), be(data[42:44], order), be(data[44:46], order))
    )
    dynamic = False
    for k in range(phnum):
        at = phoff + k * phentsize
        if at + phentsize > len(data):
            return ""
        kind = be(data[at : at + 4], order)
        if kind == 3:  # PT_INTERP
            off, size = (
                (be(data[at + 8 : at + 16], order), be(data[at + 32 : at + 40], order))
                if wide
                else (be(data[at + 4 : at + 8], order), be(data[at + 16 : at + 20], order))
            )
            return "dynamically linked, interpreter " + decode(
                data[off : off + size].rstrip(b"\x00")
            )
        dynamic = dynamic or kind == 2
    return "dynamically linked" if dynamic else "statically linked"


def _file_jpeg(data: bytes) -> str:
    parts = ["JPEG image data"]
    if data[6:11] == b"JFIF\x00" and len(data) >= 18:
        units = {0: "aspect ratio", 1: "resolution (DPI)", 2: "resolution (DPCM)"}.get(data[13], "")
        parts += [
            f"JFIF standard {data[11]}.{data[12]:02d}",
            units,
            f"density {int.from_bytes(data[14:16], 'big')}x{int.from_bytes(data[16:18], 'big')}",
            f"segment length {int.from_bytes(data[4:6], 'big')}",
        ]
    i = 2
    while i + 9 < len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            parts += [
                {0xC0: "baseline", 0xC1: "extended sequential", 0xC2: "progressive"}[marker],
                f"precision {data[i + 4]}",
                f"{int.from_bytes(data[i + 7 : i + 9], 'big')}"
                f"x{int.from_bytes(data[i + 5 : i + 7], 'big')}",
                f"components {data[i + 9]}",
            ]
            break
        i += 2 + length
    return ", ".join(p for p in parts if p)


def _file_zip(data: bytes) -> _Kind:
    import io as command_io
    import zipfile

    try:
        names = (
            zipfile.ZipFile(command_io.BytesIO(data)).namelist() if len(data) < (1 << 16) else []
        )
    except (zipfile.BadZipFile, ValueError, OSError):
        names = []
    if not names:  # a large archive: the names of the local headers in the first bytes
        le, pos = int.from_bytes, 0
        while data.startswith(b"PK\x03\x04", pos) and pos + 30 <= len(data):
            size, n, extra = (
                le(data[pos + 18 : pos + 22], "little"),
                le(data[pos + 26 : pos + 28], "little"),
                le(data[pos + 28 : pos + 30], "little"),
            )
            names.append(data[pos + 30 : pos + 30 + n].decode("latin-1"))
            pos += 30 + n + extra + size
    if (
        names and names[0] in ("[Content_Types].xml", "_rels/.rels")
    ) or "[Content_Types].xml" in names:
        for prefix, desc, mime in (
            ("word/", "Microsoft Word 2007+", "wordprocessingml.document"),
            ("xl/", "Microsoft Excel 2007+", "spreadsheetml.sheet"),
            ("ppt/", "Microsoft PowerPoint 2007+", "presentationml.presentation"),
        ):
            if any(n.startswith(prefix) for n in names):
                return desc, f"application/vnd.openxmlformats-officedocument.{mime}; charset=binary"
        return "Microsoft OOXML", "application/octet-stream; charset=binary"
    version = data[4]
    method = {0: "store", 8: "deflate", 12: "bzip2", 14: "lzma", 93: "zstd"}.get(
        int.from_bytes(data[8:10], "little")
    )
    desc = f"Zip archive data, at least v{version // 10}.{version % 10} to extract"
    return desc + (
        f", compression method={method}" if method else ""
    ), "application/zip; charset=binary"


def _file_gzip(data: bytes) -> str:
    parts = ["gzip compressed data"]
    flags, mtime, xfl, os_byte = data[3], int.from_bytes(data[4:8], "little"), data[8], data[9]
    if flags & 8:
        start = 10 + (2 + int.from_bytes(data[10:12], "little") if flags & 4 else 0)
        end = data.find(b"\x00", start)
        parts.append(f'was "{decode(data[start:end])}"')
    if mtime:
        parts.append(
            "last modified: " + time.strftime("%a %b %e %H:%M:%S %Y", time.localtime(mtime))
        )
    if xfl in (2, 4):
        parts.append("max compression" if xfl == 2 else "max speed")
    if os_byte == 3:
        parts.append("from Unix")
    return ", ".join(parts)


def _file_text(data: bytes) -> _Kind:
    enc, mime_charset, text = None, None, None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        endian = "little" if data[:2] == b"\xff\xfe" else "big"
        return (
            f"Unicode text, UTF-16, {endian}-endian text",
            f"text/plain; charset=utf-16{endian[0]}e",
        )
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    if re.search(rb"[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f]", body):
        return "data", "application/octet-stream; charset=binary"
    if body.isascii() and not bom:
        enc, mime_charset, text = "ASCII", "us-ascii", body.decode("ascii")
    else:
        try:
            text = body.decode("utf-8")
            enc, mime_charset = "Unicode text, UTF-8" + (" (with BOM)" if bom else ""), "utf-8"
        except UnicodeDecodeError:
            text = body.decode("latin-1")
            if re.search(rb"[\x80-\x9f]", body):
                enc, mime_charset = "Non-ISO extended-ASCII", "unknown-8bit"
            else:
                enc, mime_charset = "ISO-8859", "iso-8859-1"
    desc, mime = f"{enc} text", "text/plain"
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        interp = os.path.basename(words[0]) if words else ""
        if interp == "env" and len(words) > 1:
            interp = words[1]
        key = re.sub(r"[\d.]+$", "", interp)
        form, mime = _FILE_SCRIPTS.get(
            key, (f"a {' '.join(words)} script, {{}} executable", "text/x-script")
        )
        desc = form.format(desc)
    elif re.match(r"\s*<\?xml version=\"1\.0\"", text):
        desc, mime = f"XML 1.0 document, {desc}", "text/xml"
    elif re.match(r"\s*<(!doctype html|html)", text, re.I):
        desc, mime = f"HTML document, {desc}", "text/html"
    elif text.lstrip()[:1] in ("{", "[") and _file_json(text):
        return "JSON text data", f"application/json; charset={mime_charset}"
    elif (
        re.search(r"^from\s+[\w.]+\s+import\s", text, re.M)
        or re.search(r"^\s{0,8}def\s+\w+\s*\(.*\)\s*(->.*)?:\s*$", text, re.M)
        or re.search(r"^class\s+\w+.*:\s*$", text, re.M)
    ):
        desc, mime = f"Python script, {desc} executable", "text/x-script.python"
    elif re.search(r"^#include\s*[<\"]|^\s*int\s+main\s*\(", text, re.M):
        desc, mime = f"C source, {desc}", "text/x-c"
    elif _file_csv(text):
        desc, mime = "CSV text", "text/csv"
    lines = re.split(r"\r\n|\r|\n", text)
    longest = max(len(x) for x in lines)
    if longest > 300:
        desc += f", with very long lines ({longest})"
    ends = [
        e
        for e, rx in (("CRLF", r"\r\n"), ("CR", r"\r(?!\n)"), ("LF", r"(?<!\r)\n"))
        if re.search(rx, text)
    ]
    if not ends:
        desc += ", with no line terminators"
    elif ends != ["LF"]:
        desc += f", with {', '.join(ends)} line terminators"
    if "\x1b" in text:
        desc += ", with escape sequences"
    if "\b" in text:
        desc += ", with overstriking"
    return desc, f"{mime}; charset={mime_charset}"


def _file_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _file_csv(text: str) -> bool:
    """libmagic's test: at least three lines with the same number (two or more) of fields."""
    lines = [x for x in text.splitlines()[:10] if x]
    counts = {x.count(",") for x in lines}
    return len(lines) >= 3 and len(counts) == 1 and counts.pop() >= 1
