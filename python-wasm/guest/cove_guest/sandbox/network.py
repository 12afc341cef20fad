"""No network, said plainly: every way out fails at once with the same sentence.

WASI preview 1 gives the guest no sockets to connect and no name resolution. Without this
module the failures are misleading ("module '_socket' has no attribute 'getaddrinfo'",
"unknown url type: https"); with it, sockets, DNS, `urllib`, `http.client` and `requests`
raise `OSError(ENETUNREACH, MESSAGE)` or their library's wrapper of it.
"""

import errno
import socket

MESSAGE = "network access is not available in this sandbox"
_WEB_SCHEMES = ("http", "https", "ftp")


def no_network(*_args, **_kwargs):
    raise OSError(errno.ENETUNREACH, MESSAGE)


def _connect(self, *_args, **_kwargs):
    raise OSError(errno.ENETUNREACH, MESSAGE)


def install():
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


def _install_http_client():
    import http.client

    http.client.HTTPConnection.connect = _connect  # type: ignore[method-assign]
    if not hasattr(http.client, "HTTPSConnection"):
        # Without ssl the class is missing, and code that names it fails with AttributeError.
        class HTTPSConnection(http.client.HTTPConnection):
            default_port = http.client.HTTPS_PORT

        http.client.HTTPSConnection = HTTPSConnection  # type: ignore[misc,assignment]


def _install_urllib():
    import urllib.error
    import urllib.request

    opener_open = urllib.request.OpenerDirector.open

    # socket._GLOBAL_DEFAULT_TIMEOUT is private: typeshed leaves it out, it exists at runtime.
    def open_(self, fullurl, data=None, timeout=socket._GLOBAL_DEFAULT_TIMEOUT):  # type: ignore[attr-defined]
        url = fullurl if isinstance(fullurl, str) else fullurl.full_url
        if url.split(":", 1)[0].lower() in _WEB_SCHEMES:
            raise urllib.error.URLError(OSError(errno.ENETUNREACH, MESSAGE))
        return opener_open(self, fullurl, data, timeout)

    urllib.request.OpenerDirector.open = open_  # type: ignore[method-assign]


def _install_urllib3():
    # requests goes through urllib3, which refuses https before connecting when ssl is missing
    # ("Can't connect to HTTPS URL because the SSL module is not available"): give both
    # schemes the one reason. urllib3 ships in the guest's zip; without it there is nothing to do.
    try:
        import urllib3.connectionpool
        import urllib3.exceptions
    except ImportError:
        return

    def new_conn(self):
        raise urllib3.exceptions.NewConnectionError(self, f"Failed to connect: {MESSAGE}")

    urllib3.connectionpool.HTTPConnectionPool._new_conn = new_conn  # type: ignore[method-assign]
    urllib3.connectionpool.HTTPSConnectionPool._new_conn = new_conn  # type: ignore[method-assign]
