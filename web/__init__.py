"""The table on a screen: a live, read-only web page of one channel's table (`/table link`).

`web.server` serves it (aiohttp, on its own port), `web.live` keeps every open page current
over Server-Sent Events, `web.view` turns a table and its latest changes into what the page
shows, `web.pages` renders it with Jinja2 (autoescaped templates in `web/templates/`), and
`web.limits` keeps one address from taking more than its share. It reads the store and never
imports Discord (an import-linter contract holds it); the bot starts it (`bot.client`).
"""
