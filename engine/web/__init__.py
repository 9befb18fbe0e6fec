"""The web table: any rule file played in the browser (``naipes serve``).

:mod:`naipes.web.table` runs a game with human seats whose moves come from
browser tabs; :mod:`naipes.web.app` serves it (Starlette, WebSockets); the
page's assets are in ``static/`` (one HTML, one JavaScript and one CSS file:
no build step, nothing downloaded).
"""
