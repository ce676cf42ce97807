"""The client in five languages. Every message catalogue (src/pokerroom/web/i18n)
has every key, no empty message and the same placeholders as English; every error code the
server can send and every line of the replayer is in each; and no text of the client is
left untranslated (static HTML names its key, JavaScript asks ``t()`` for its text)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from pokerroom import errors
from pokerroom.server.app import WEB
from pokerroom.server.sockets import protocol
from pokerroom.server.tables.replayer import LINES
from pokerroom.table import TableError

LANGUAGES = ("en", "nb", "da", "sv", "hu")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{language}.json").read_text("utf-8"))
    return data


ENGLISH = catalogue("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_in_every_language_none_empty_same_placeholders(language: str) -> None:
    messages = catalogue(language)
    assert set(messages) == set(ENGLISH), set(messages) ^ set(ENGLISH)
    for key, text in messages.items():
        assert isinstance(text, str) and text.strip(), (language, key)
        wanted = sorted(PLACEHOLDER.findall(ENGLISH[key]))
        assert sorted(PLACEHOLDER.findall(text)) == wanted, (language, key, text)
        assert text.count("{") == text.count("}"), (language, key, text)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_ui_is_translated_not_copied(language: str) -> None:
    """Most messages differ from English: a catalogue that copies English is not a translation.
    (Names, abbreviations and a few poker words are the same in every room: at most 12%.)"""
    messages = catalogue(language)
    same = [k for k in ENGLISH if messages[k] == ENGLISH[k]]
    assert len(same) < len(ENGLISH) * 0.12, same


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_error_code_the_server_can_send_is_in_every_catalogue(language: str) -> None:
    messages = catalogue(language)
    for code in errors.CODES:
        assert f"error.{code}" in messages, (language, code)
    for key in LINES:
        assert key in messages, (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_action_and_hand_name_the_server_sends_is_in_every_catalogue(language: str) -> None:
    """The table frames send what a seat did and a shown hand's name as enum values; each
    value has its message in each language (``action.<value>``, ``hand.<value>``, a rank's
    ``rank.<value>`` and its plural ``ranks.<value>``)."""
    messages = catalogue(language)
    wanted = [f"action.{action}" for action in protocol.ActionKind]
    wanted += [f"hand.{category}" for category in protocol.HandCategory]
    wanted += [f"{kind}.{rank}" for rank in protocol.Rank for kind in ("rank", "ranks")]
    assert [key for key in wanted if key not in messages] == [], language


def test_english_says_what_the_server_says() -> None:
    """en.json's errors and replayer lines are the server's own English, word for word."""
    for code, template in {**errors.TEMPLATES, **errors.GENERIC}.items():
        assert ENGLISH[f"error.{code}"] == template, code
    for key, text in LINES.items():
        assert ENGLISH[key] == text, key


def sample(template: str) -> dict[str, str | int]:
    return {
        name: (400 + n if name in errors.AMOUNTS else f"x{n}")
        for n, name in enumerate(PLACEHOLDER.findall(template))
    }


@pytest.mark.parametrize("code", sorted(errors.TEMPLATES))
def test_an_error_says_the_english_of_the_code_it_carries(code: str) -> None:
    params = sample(errors.TEMPLATES[code])
    error = errors.CodedError(code=code, **params)
    assert str(error) == errors.TEMPLATES[code].format(**params)
    assert errors.code_of(error) == (code, params)


def test_an_error_raised_with_no_code_is_sent_as_it_is() -> None:
    for error in (
        ValueError("the moon is made of cheese"),
        TableError("the moon is made of cheese"),
    ):
        assert errors.code_of(error) == ("error.unknown", {"message": "the moon is made of cheese"})


def test_amounts_go_as_integers_and_the_rest_as_text() -> None:
    error = TableError(code="chips.below_minimum", amount=50, total=50, min=100)
    assert errors.code_of(error) == (
        "chips.below_minimum",
        {"amount": 50, "total": 50, "min": 100},
    )
    assert errors.code_of(TableError(code="seat.taken", seat=3)) == ("seat.taken", {"seat": "3"})


# ---------------------------------------------------------------- nothing left untranslated

# Text that is the same in every language: the room's name, symbols, keys on the keyboard.
DATA = {"pokerroom", "F", "C", "R", "♠", "×", "«", "‹", "›", "»", "/"}
TRANSLATED_ATTRIBUTES = ("title", "aria-label", "placeholder")


class _Texts(HTMLParser):
    """Every text node and translatable attribute of index.html, with whether it names a key."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[dict[str, str | None]] = []
        self.untranslated: list[str] = []
        self.keys: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name, value in found.items():
            if name.startswith("data-i18n") and value:
                self.keys.add(value)
        for name in TRANSLATED_ATTRIBUTES:
            text = found.get(name)
            if text and text.strip() not in DATA and f"data-i18n-{name}" not in found:
                self.untranslated.append(f"<{tag} {name}={text!r}>")
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append(found)

    def handle_endtag(self, tag: str) -> None:
        if self.stack and tag not in ("meta", "link", "input", "br", "img"):
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text or text in DATA or not self.stack:
            return
        if "data-i18n" in self.stack[-1] or any(tag.get("type") == "module" for tag in self.stack):
            return
        if any(tag.get("rel") for tag in self.stack) or self.stack[-1].get("charset"):
            return
        self.untranslated.append(text)


def test_no_static_text_of_the_page_is_left_untranslated() -> None:
    parser = _Texts()
    parser.feed((WEB / "index.html").read_text("utf-8"))
    assert parser.untranslated == []
    assert parser.keys <= set(ENGLISH), parser.keys - set(ENGLISH)


# Where the client puts text on the page: an element's text or a translatable attribute
# (el()'s attributes, or assigned to the node), followed by a string literal.
SHOWN = re.compile(
    r"""(?:\b(?:text|title|placeholder|"aria-label")\s*:\s*|"""
    r"""\.(?:textContent|innerText|title|placeholder)\s*=\s*|"""
    r"""setAttribute\("(?:aria-label|title|placeholder)",\s*)(?=["'`])"""
)


def literal(source: str, at: int) -> str:
    """The fixed text of the string literal at ``at``: a template's ``${...}`` parts (data, or
    t() calls) left out, ``\\u`` escapes (symbols) too."""
    quote, i, text = source[at], at + 1, []
    while source[i] != quote:
        if source[i] == "\\":
            text.append("" if source[i + 1] == "u" else source[i + 1])
            i += 6 if source[i + 1] == "u" else 2
        elif quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while depth:  # the expression, with its own strings and templates
                if source[i] in "\"'`":
                    literal(source, i)
                    i = _end(source, i)
                    continue
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
        else:
            text.append(source[i])
            i += 1
    return "".join(text)


def _end(source: str, at: int) -> int:
    """Where the string literal at ``at`` ends (just past its closing quote)."""
    quote, i = source[at], at + 1
    while source[i] != quote:
        if source[i] == "\\":
            i += 2
        elif quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while depth:
                if source[i] in "\"'`":
                    i = _end(source, i)
                    continue
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
        else:
            i += 1
    return i + 1


def test_no_text_the_scripts_show_is_a_literal_and_every_key_they_ask_for_exists() -> None:
    literals: list[str] = []
    asked: set[str] = set()
    for script in sorted((WEB / "js").glob("*.js")):
        source = script.read_text("utf-8")
        for found in SHOWN.finditer(source):
            text = literal(source, found.end())
            if re.search(r"[A-Za-z]{2}", text):
                literals.append(f"{script.name}: {found.group(0)}{text!r}")
        for found in re.finditer(
            r"""\b(?:t|i18n)\(\s*"([^"]+)"|"(?:data-i18n[a-z-]*)":\s*"([^"]+)\"""", source
        ):
            asked.add(found.group(1) or found.group(2))
    assert literals == []
    assert asked <= set(ENGLISH), asked - set(ENGLISH)


def test_the_scan_finds_a_literal_left_in_a_script() -> None:
    """The check above can fail: it finds English put on the page, not data or t() calls."""
    source = 'el("b", { text: `Seat ${n}` }); x.title = `${t("a.b", { c: `${d}` })} \\u00b7 ${e}`;'
    found = [literal(source, m.end()) for m in SHOWN.finditer(source)]
    assert found == ["Seat ", "  "]
