"""GetFile and PutFile over HTTP, in bounded pieces: a file is never whole in memory.

A download is a `cove.WorkspaceFile` (opened under the session's lock) sent in 64 KiB pieces,
each read in a worker thread after the previous one was taken by the transport; it is closed
on every path, a client that disconnects included. An upload is parsed as it arrives
(multipart's push parser): the `file` part goes to a `cove.Upload` spool outside the workspace
and is refused with 413 as soon as it passes `max_file_bytes`; the `path` part may come before
or after it; the spool is moved into the workspace when the body is complete.
"""

from __future__ import annotations

import posixpath
import urllib.parse
from typing import Any

import anyio
import multipart  # type: ignore[import-untyped]
from litestar import Request
from litestar.exceptions import HTTPException

import cove

from ._wire import FileUploadResult

__all__ = ["FileDownload", "content_disposition", "receive_upload"]

# A `path` form field longer than this is not a path.
_MAX_FIELD_BYTES = 16 * 1024
# A form with more parts than this is not a PutFile.
_MAX_PARTS = 16


def _safe_name(filename: str | None) -> str | None:
    """The last component of a client-supplied name, or None if there is none."""
    if not filename:
        return None
    name = posixpath.basename(filename.replace("\\", "/"))
    return name if name not in ("", ".", "..") else None


def content_disposition(path: str) -> str:
    """`attachment` with the file's name: an ASCII fallback with every unsafe character
    replaced by `_`, and the exact name percent-encoded as UTF-8 (RFC 6266, RFC 5987)."""
    name = _safe_name(path) or "file"
    fallback = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in name)
    exact = urllib.parse.quote(name.encode("utf-8", "surrogatepass"), safe="")
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{exact}"


class FileDownload:
    """An ASGI response that streams an open `WorkspaceFile` and closes it on every path.

    A client that takes no piece for `stall_s` seconds is cut off (the connection closed, the
    file released): an open download keeps its file's disk space, charged to its session,
    and that may not last at a client's pleasure."""

    def __init__(self, file: cove.WorkspaceFile, *, path: str, stall_s: float) -> None:
        self.file = file
        self.stall_s = stall_s
        self.headers = [
            (b"content-type", file.media_type.encode("latin-1")),
            (b"content-length", str(file.size_bytes).encode("ascii")),
            (b"content-disposition", content_disposition(path).encode("ascii")),
        ]

    # Plain ASGI, typed loosely on purpose: scopes and messages are dictionaries by protocol.
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.headers})
            async with anyio.create_task_group() as tg:
                tg.start_soon(_cancel_on_disconnect, receive, tg.cancel_scope)
                while chunk := await self.file.read():
                    # The server's send waits while the client's socket is full.
                    with anyio.fail_after(self.stall_s):
                        await send({"type": "http.response.body", "body": chunk, "more_body": True})
                # A file that shrank while being sent cannot honour its Content-Length: the
                # response is left incomplete and the server closes the connection.
                if self.file.complete:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                tg.cancel_scope.cancel()
        finally:
            self.file.close()


async def _cancel_on_disconnect(receive: Any, scope: anyio.CancelScope) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            scope.cancel()
            return


def _boundary(request: Request[Any, Any, Any]) -> bytes:
    media_type, options = request.content_type
    if media_type != "multipart/form-data":
        raise cove.InvalidRequestError("PutFile takes multipart/form-data with a `file` part")
    boundary = options.get("boundary")
    if not boundary:
        raise cove.InvalidRequestError("multipart/form-data without a boundary")
    try:
        return boundary.encode("latin-1")
    except UnicodeEncodeError:
        raise cove.InvalidRequestError("the multipart boundary is not ASCII") from None


def _declared_length(request: Request[Any, Any, Any], max_body_bytes: int) -> None:
    raw = request.headers.get("content-length")
    if raw is None:
        return
    if not raw.isdigit():
        raise cove.InvalidRequestError(f"invalid Content-Length {raw[:40]!r}")
    if int(raw) > max_body_bytes:
        raise cove.TooLargeError("the request body", int(raw), max_body_bytes)


class _Form:
    """What a PutFile body holds, filled in as its parts arrive."""

    def __init__(self, session: cove.Session) -> None:
        self.session = session
        self.upload: cove.Upload | None = None
        self.filename: str | None = None
        self.path: str | None = None
        self.files = 0
        self._part: str | None = None  # "file", "path", or None for a part that is skipped
        self._field = bytearray()

    async def on_event(self, event: Any) -> None:
        if isinstance(event, multipart.MultipartSegment):
            await self._begin(event)
        elif event:
            await self._data(bytes(event))
        else:
            self._end()

    async def _begin(self, segment: Any) -> None:
        name: object = segment.name
        self._part = None
        if name == "file":
            self.files += 1
            if self.files > 1:
                raise cove.InvalidRequestError("multipart body has more than one `file` part")
            filename: object = segment.filename
            if isinstance(filename, str) and filename:
                cove.check_new_name(filename)
                self.filename = filename
            self.upload = await self.session.new_upload()
            self._part = "file"
        elif name == "path":
            self._field = bytearray()
            self._part = "path"

    async def _data(self, data: bytes) -> None:
        if self._part == "file":
            assert self.upload is not None
            await self.upload.write(data)
        elif self._part == "path":
            self._field += data
            if len(self._field) > _MAX_FIELD_BYTES:
                raise cove.InvalidRequestError(
                    f"the `path` field is longer than {_MAX_FIELD_BYTES} bytes"
                )

    def _end(self) -> None:
        if self._part == "path":
            try:
                value = self._field.decode("utf-8")
            except UnicodeDecodeError:
                raise cove.InvalidRequestError("the `path` field is not UTF-8") from None
            if value:
                cove.check_new_name(value)
                self.path = value
        self._part = None


async def receive_upload(
    request: Request[Any, Any, Any], session: cove.Session, *, max_body_bytes: int
) -> FileUploadResult:
    """Parse a PutFile body as it arrives and place its file in the session's workspace.

    Raises:
        InvalidRequestError: not multipart/form-data, malformed, no `file` part, no usable
            path, or a name with a control character.
        TooLargeError: the body passes `max_body_bytes`, or the file `max_file_bytes`.
        PathOutsideWorkspaceError, NotAFileError: as for `Session.place_upload`.
    """
    boundary = _boundary(request)
    _declared_length(request, max_body_bytes)
    form = _Form(session)
    received = 0
    try:
        parser = multipart.PushMultipartParser(boundary, max_segment_count=_MAX_PARTS)
        while not parser.closed:
            message: dict[str, Any] = dict(await request.receive())
            if message["type"] == "http.disconnect":
                raise HTTPException(status_code=400, detail="the client disconnected")
            chunk = bytes(message.get("body", b""))
            received += len(chunk)
            if received > max_body_bytes:
                raise cove.TooLargeError("the request body", received, max_body_bytes)
            if chunk:  # an empty chunk would tell the parser the input ended
                for event in parser.parse(chunk):
                    await form.on_event(event)
            if not message.get("more_body", False) and not parser.closed:
                parser.close()  # raises: the body ended inside the multipart stream
        if form.upload is None:
            raise cove.InvalidRequestError("multipart body has no `file` part")
        path = form.path or _safe_name(form.filename)
        if path is None:
            raise cove.InvalidRequestError("no `path` given and the upload has no usable filename")
        stored = await session.place_upload(path, form.upload)
        return FileUploadResult(path=stored.path, size_bytes=stored.size_bytes)
    except multipart.MultipartError as exc:
        raise cove.InvalidRequestError(f"malformed multipart body: {exc}") from None
    finally:
        if form.upload is not None:
            form.upload.discard()
