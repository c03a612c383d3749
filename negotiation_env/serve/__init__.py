"""Play in the browser: ``negotiation-env serve``.

A person opens a link and plays a seat of any game, in any condition, against any
policy the runner accepts, or against another person with a link of their own; a study
(:mod:`.study`) hands seats to arriving participants and records their games as
ordinary traces.

Built on Starlette and uvicorn: a small ASGI toolkit and its standard server, both
well kept, with no template engine or front-end build to add (the one page is static
and its script builds the DOM from JSON), server-sent events through a plain
``StreamingResponse`` (one-way updates are all a seat needs; its answers are ordinary
POSTs), and a test client for the routes. FastAPI would add request models and
OpenAPI pages this app does not use.

* :mod:`.table`: one game in its own thread; a person's seat waits on a queue.
* :mod:`.app`: the routes, the access token, the size limit, the server.
* :mod:`.page`: the seat page, its script and style, the landing page.
* :mod:`.study`: sessions for studies (consent, participant codes, traces on disk).
* :mod:`.commands`: the ``serve`` command.
"""

import ipaddress

__all__ = ["is_loopback"]


def is_loopback(host: str) -> bool:
    """``host`` (an address, bracketed or not, or a name) is a loopback address or
    ``localhost``: what a server may listen on without an access token."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
