"""The client's languages in Chromium: the message catalogues, switching language, and checking
that a page shows no untranslated text."""

from __future__ import annotations

import json
import re

import httpx
from playwright.async_api import Page

from pokerroom.server.app import WEB
from tests.browser.conftest import Room

# Every text a person sees in ``root`` (visible text nodes, and the labels, titles and
# placeholders of visible elements); cards, key caps and chat are data, not the client's.
VISIBLE_TEXT = """(root) => {
  const scope = document.querySelector(root);
  const shown = (node) => node.checkVisibility({ checkVisibilityCSS: true });
  const texts = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    const text = node.textContent.trim();
    if (!text || parent.closest("script, style, template, kbd, .card, .chat-log, select")) continue;
    if (shown(parent)) texts.push(text);
  }
  for (const node of scope.querySelectorAll("[aria-label], [title], [placeholder], option")) {
    if (node.closest(".card") || (node.tagName !== "OPTION" && !shown(node))) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = node.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
    if (node.tagName === "OPTION") texts.push(node.textContent.trim());
  }
  return texts;
}"""
MONEY = re.compile(r"[+\-\u2212]?\$?\d[\d\s\xa0\u202f.,]*(?:\s|\xa0|\u202f)?\$?")
CARDS = re.compile(r"\b[2-9TJQKA][shdc]\b")
BOTS = re.compile(r"\bbot_[a-z0-9_]+")  # the demo bots come and go: named by the room
WORD = re.compile(r"[^\W\d_]{2,}")


LANGUAGES = ("nb", "da", "sv", "hu")


def catalogue(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{language}.json").read_text("utf-8"))
    return data


class Checker:
    """Whether a text shown in ``language`` is the client's (a message of its catalogue) or
    data (names, amounts, cards, times), and never an English message left untranslated."""

    def __init__(self, language: str, names: set[str]) -> None:
        messages = catalogue(language)
        ordered = sorted(messages.values(), key=len, reverse=True)
        self.whole = [p for text in ordered if (p := template(text, whole=True)) is not None]
        self.parts = [p for text in ordered if (p := template(text, whole=False)) is not None]
        self.names = sorted(names, key=len, reverse=True)
        self.english = {text for key, text in ENGLISH.items() if messages[key] != text}

    def problem(self, text: str) -> str | None:
        if text in self.english:
            return f"English: {text!r}"
        if any(pattern.match(text) for pattern in self.whole):
            return None
        # Names first, the bots' too: a message's word inside a name ("ti" in
        # "bot_nlhe_options_0") must not cut it so that the rest looks like a word.
        rest = text
        for name in self.names:
            rest = rest.replace(name, " ")
        rest = BOTS.sub(" ", rest)
        for pattern in self.parts:
            rest = pattern.sub(" ", rest)
        rest = CARDS.sub(" ", MONEY.sub(" ", rest))
        left = WORD.findall(rest)
        names = [name for name in self.names if name in text]
        return f"not in the catalogue: {text!r} (left: {left}, names: {names})" if left else None


async def data_names(room: Room, *extra: str) -> set[str]:
    """The names the room gives: tables, games, players, tournaments (data in every
    language)."""
    names = {"pokerroom", *extra}
    for table in await room.lobby():
        short = table["name"].split(" (")[0]  # a tab names its table shortly
        names.update([table["name"], short, table["game"], table["id"], *table["players"]])
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        names.update(event["name"] for event in (await http.get("/api/tournaments")).json())
    return names


async def untranslated(page: Page, root: str, checker: Checker) -> list[str]:
    texts: list[str] = await page.evaluate(VISIBLE_TEXT, root)
    return [p for text in texts if (p := checker.problem(text)) is not None]


async def switch(page: Page, language: str) -> None:
    await page.select_option("#language", language)
    logout = catalogue(language)["header.logout"]
    await page.wait_for_function(
        "([lang, text]) => document.documentElement.lang === lang && "
        "document.querySelector('#logout').textContent === text",
        arg=[language, logout],
    )


ENGLISH = catalogue("en")


def template(text: str, *, whole: bool) -> re.Pattern[str] | None:
    """A catalogue message as a pattern ("{x}" stands for anything); None for one with no
    word of its own (it would match anything)."""
    parts = re.split(r"\{\w+\}", text)
    if not any(WORD.search(part) for part in parts):
        return None
    regex = ".+?".join(re.escape(part) for part in parts)
    return re.compile(f"^{regex}$" if whole else regex, re.DOTALL)
