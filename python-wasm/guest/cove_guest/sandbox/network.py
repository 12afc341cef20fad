"""No network, said plainly: every way out fails at once with the same sentence.

WASI preview 1 gives the guest no sockets to connect and no name resolution. Without this
module the failures are misleading ("module '_socket' has no attribute 'getaddrinfo'",
"unknown url type: https"); with it, sockets, DNS, `urllib`, `http.client` and `requests`
raise `OSError(ENETUNREACH, MESSAGE)` or their library's wrapper of it.
"""

import errno
import socket
from typing import Any, NoReturn

MESSAGE = "network access is not available in this sandbox"
_WEB_SCHEMES = ("http", "https", "ftp")


def no_network(*_args: object, **_kwargs: object) -> NoReturn:
    raise OSError(errno.ENETUNREACH, MESSAGE)


def _connect(self: object, *_args: object, **_kwargs: object) -> NoReturn:
    raise OSError(errno.ENETUNREACH, MESSAGE)


def install() -> None:
    socket.getaddrinfo = no_network
    socket.gethostbyname = no_network
    socket.gethostbyname_ex = no_network
    socket.gethostbyaddr = no_network
    socket.create_connection = no_network
    # Deliberate monkeypatching (here and in http.client, urllib and urllib3 below): that is
    # what the ignores are for.
    socket.socket.connect = _connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect  # type: ignore[method-assign]
    _install_http_client()
    _install_urllib()
    _install_urllib3()


def _install_http_client() -> None:
    import http.client

    http.client.HTTPConnection.connect = _connect  # type: ignore[method-assign]
    if not hasattr(http.client, "HTTPSConnection"):
        # Without ssl the class is missing, and code that names it fails with AttributeError.
        class HTTPSConnection(http.client.HTTPConnection):
            default_port = http.client.HTTPS_PORT

        http.client.HTTPSConnection = HTTPSConnection  # type: ignore[misc,assignment]


def _install_urllib() -> None:
    import urllib.error
    import urllib.request

    opener_open = urllib.request.OpenerDirector.open

    # socket._GLOBAL_DEFAULT_TIMEOUT is private: typeshed leaves it out, it exists at runtime.
    def open_(
        self: urllib.request.OpenerDirector,
        fullurl: Any,
        data: Any = None,
        timeout: Any = socket._GLOBAL_DEFAULT_TIMEOUT,  # type: ignore[attr-defined]
    ) -> Any:
        url = fullurl if isinstance(fullurl, str) else fullurl.full_url
        if url.split(":", 1)[0].lower() in _WEB_SCHEMES:
            raise urllib.error.URLError(OSError(errno.ENETUNREACH, MESSAGE))
        return opener_open(self, fullurl, data, timeout)

    urllib.request.OpenerDirector.open = open_  # type: ignore[method-assign]


def _install_urllib3() -> None:
    # requests goes through urllib3, which refuses https before connecting when ssl is missing
    # ("Can't connect to HTTPS URL because the SSL module is not available"): give both
    # schemes the one reason. urllib3 ships in the guest's zip; without it there is nothing to do.
    try:
        import urllib3.connectionpool
        import urllib3.exceptions
    except ImportError:
        return

    def new_conn(self: Any) -> NoReturn:
        raise urllib3.exceptions.NewConnectionError(self, f"Failed to connect: {MESSAGE}")

    urllib3.connectionpool.HTTPConnectionPool._new_conn = new_conn  # type: ignore[method-assign]
    urllib3.connectionpool.HTTPSConnectionPool._new_conn = new_conn  # type: ignore[method-assign]
