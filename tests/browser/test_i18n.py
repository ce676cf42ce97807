"""The seed rooms' languages: the client chosen from the browser's languages,
switched in the header to Norwegian, Danish, Swedish and Hungarian, every text shown on the
lobby and a table (and their labels) taken from that language's catalogue, money formatted
for the language, and the choice kept after a reload and on another browser where the same
account logs in (saved per account, GET/PUT /api/preferences)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page

from pokerroom.server.sockets import protocol
from tests.browser.conftest import BOT_TABLES, EVERY_TABLE, Room, new_player, screenshot
from tests.helpers.browser_i18n import (
    ENGLISH,
    LANGUAGES,
    Checker,
    catalogue,
    data_names,
    switch,
    untranslated,
)

TABLE = BOT_TABLES[0]
ROOT = f".table-view[data-table='{TABLE}']"
# The starting balance and a lost result, as each language writes money (Intl, in Chromium).
BALANCE = {
    "en": "$10,000",
    "nb": "10\xa0000\xa0$",
    "da": "10.000\xa0$",
    "sv": "10\xa0000\xa0$",
    "hu": "10\xa0000\xa0$",
}
LOST = {"en": "-$6.00", "nb": "\u22126,00\xa0$", "da": "-6,00\xa0$", "sv": "\u22126,00\xa0$"}
LOST["hu"] = "-6,00\xa0$"


async def preferences(room: Room, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        response = await http.get("/api/preferences", headers={"Authorization": f"Bearer {token}"})
    response.raise_for_status()
    return dict(response.json())


async def saved_language(room: Room, token: str, page: Page) -> str | None:
    """The account's language as the server keeps it, once the page's PUT has landed (it is
    sent after the page has switched): read until it is the page's choice, bounded."""
    choice = await page.input_value("#language") or None
    for _ in range(50):
        saved = (await preferences(room, token))["language"]
        if saved == choice:
            break
        await page.wait_for_timeout(100)
    return saved  # type: ignore[no-any-return]


async def page_in(browser: Browser, room: Room, locale: str, language: str) -> Page:
    """A new browser (nothing in its storage) speaking ``locale``, on the room's page, which
    has chosen ``language``."""
    context = await browser.new_context(locale=locale)
    page = await context.new_page()
    await page.goto(room.base + "/")
    await page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=language)
    return page


async def test_the_browsers_language_picks_the_client_norwegian_for_no_and_nn(
    browser: Browser, room: Room
) -> None:
    for locale, expected in (("nb-NO", "nb"), ("no", "nb"), ("nn-NO", "nb"), ("sv-SE", "sv")):
        page = await page_in(browser, room, locale, expected)
        messages = catalogue(expected)
        assert await page.inner_text("#login") == messages["auth.login"]
        assert await page.inner_text("#signup") == messages["auth.signup"]
        checker = Checker(expected, await data_names(room))
        assert await untranslated(page, "body", checker) == []
        await page.context.close()
    page = await page_in(
        browser, room, "de-DE", "en"
    )  # a language the room does not speak: English
    assert await page.inner_text("#login") == ENGLISH["auth.login"]
    await page.context.close()


@pytest.mark.room(bot_tables=EVERY_TABLE, sit_and_go=True)  # every text the lobby can show
async def test_each_language_on_the_lobby_and_a_table_saved_for_the_account(
    browser: Browser, room: Room
) -> None:
    player = await new_player(browser, room, "kari")
    page = player.page
    token = await player.token()
    assert await page.inner_text("#balance") == BALANCE["en"]
    names = await data_names(room, "kari")
    for language in LANGUAGES:  # the lobby, with money and counts as the language writes them
        messages = catalogue(language)
        await switch(page, language)
        await page.click("#tabs .tab >> nth=0")
        assert await page.inner_text("#balance") == BALANCE[language]
        assert await page.inner_text("#lobby h1") == messages["lobby.title"]
        stakes = await page.inner_text(f"tr[data-table='{TABLE}'] td >> nth=2")
        assert stakes == "1/2\xa0$", stakes  # the sign once, after the amounts ("$1/$2" in en)
        signed = await page.evaluate(
            "async () => (await import('/static/js/format.js')).signedMoney(-600)"
        )
        assert signed == LOST[language] and not re.search(r"\$\s*[-\u2212]", signed)
        checker = Checker(language, names)
        assert await untranslated(page, "body", checker) == []
        await screenshot(page, f"i18n-lobby-{language}")
        # The buy-in dialog of another table (cancelled).
        await page.click(f"tr[data-table='{BOT_TABLES[1]}'] .join")
        await page.wait_for_selector("#buyin[open]")
        assert await page.inner_text("#buyin-ok") == messages["buyin.sit_down"]
        assert await untranslated(page, "#buyin", checker) == []
        await screenshot(page, f"i18n-buyin-{language}")
        await page.click("#buyin-cancel")
        await page.click("#tabs .tab >> nth=0")
    # Seated at a table of bots, so that the felt shows cards, bets, pots and buttons.
    await page.click(f"tr[data-table='{TABLE}'] .join")
    await page.wait_for_selector("#buyin[open]")
    await page.click("#buyin-ok")
    await page.wait_for_selector(f"{ROOT} .seat.you")
    for language in LANGUAGES:  # the table: seats, pot, buttons, options, labels
        messages = catalogue(language)
        await switch(page, language)
        checker = Checker(language, await data_names(room, "kari"))
        await page.wait_for_selector(f"{ROOT} .actions:not([hidden])", timeout=60_000)
        fold = await page.inner_text(f"{ROOT} .actions .fold")
        assert fold.startswith(messages["action.fold"]), fold
        call = await page.inner_text(f"{ROOT} .actions .call")
        calls = ("action.check", "action.call_amount", "action.call_all_in")
        assert any(call.startswith(messages[key].split("{")[0]) for key in calls), call
        pot = await page.inner_text(f"{ROOT} .pot-total")
        assert pot.startswith(messages["table.pot"].split("{")[0]), pot
        assert pot.endswith("\xa0$"), pot  # "Pott: 3\xa0$": the amount as the language writes it
        assert await untranslated(page, ROOT, checker) == []
        assert await untranslated(page, "header", checker) == []
        await screenshot(page, f"i18n-table-{language}")
        await page.click(f"{ROOT} .actions .fold")  # acts in time: the seat stays in play
    # The hand history, a hand in the replayer and its "Verify this shuffle" panel.
    side = f"{ROOT} .side"
    for language in LANGUAGES:
        await switch(page, language)
        checker = Checker(language, await data_names(room, "kari"))
        await page.click(f"{ROOT} [data-side='history']")
        await page.click(f"{ROOT} .history-list .hand-row [data-hand] >> nth=0")
        await page.wait_for_selector(f"{ROOT} .replayer:not([hidden]) .replayer-lines li")
        await page.wait_for_selector(f"{ROOT} .vs-status:not([data-verdict])", state="attached")
        await page.click(f"{ROOT} .vs-run")
        await page.wait_for_selector(f"{ROOT} .vs-status[data-verdict='ok']")
        status = await page.inner_text(f"{ROOT} .vs-status")
        assert status.startswith(catalogue(language)["verify.verified"].split("(")[0]), status
        assert await untranslated(page, side, checker) == []
        # The replayer on the felt: its controls, seats and lines.
        assert await untranslated(page, f"{ROOT} .replayer", checker) == []
        await screenshot(page, f"i18n-history-{language}")
        await page.click(f"{ROOT} .rp-close")  # back to the table: the next one opens afresh
    # The last choice is the account's, on the server ...
    assert await saved_language(room, token, page) == "hu"
    # ... and survives a reload,
    await page.reload()
    await page.wait_for_selector(f"{ROOT} .seat.you")
    await page.wait_for_function("() => document.documentElement.lang === 'hu'")
    assert await page.input_value("#language") == "hu"
    assert await page.inner_text("#logout") == catalogue("hu")["header.logout"]
    # ... and a log-in on another browser (nothing in its storage, an English browser).
    other = await page_in(browser, room, "en-US", "en")
    await other.fill("#username", "kari")
    await other.fill("#password", "correct horse battery")
    await other.click("#login")
    await other.wait_for_function(
        "(text) => document.querySelector('#logout').textContent === text",
        arg=catalogue("hu")["header.logout"],
    )
    assert await other.evaluate("document.documentElement.lang") == "hu"
    assert await other.input_value("#language") == "hu"
    await screenshot(other, "i18n-other-browser-hu")
    await other.context.close()
    # English chosen, then the browser's language: the account follows the browser again.
    await switch(page, "en")
    assert await saved_language(room, token, page) == "en"
    await page.select_option("#language", "")
    assert await saved_language(room, token, page) is None


async def test_a_refused_request_is_shown_in_the_language_by_its_code(
    browser: Browser, room: Room
) -> None:
    page = await page_in(browser, room, "da-DK", "da")
    await page.fill("#username", "nobody_here")
    await page.fill("#password", "wrong password")
    await page.click("#login")
    await page.wait_for_function("() => document.querySelector('#auth-error').textContent !== ''")
    assert await page.inner_text("#auth-error") == catalogue("da")["error.auth.wrong_password"]
    # A table's error frame: its seat, verb and amounts (chips) said in the language.
    frame = {
        "type": "error",
        "message": "seat 3 cannot raise to 100: minimum is 400",
        "code": "hand.below_minimum",
        "params": {"name": "seat 3", "action": "raise to", "amount": 100, "min": 400},
    }
    shown = await page.evaluate(
        "async (frame) => (await import('/static/js/texts.js')).errorText(frame)", frame
    )
    assert shown == "Plads 3 kan ikke forhøje til 1\xa0$: minimum er 4\xa0$."
    unknown = {**frame, "code": "no.such.code"}  # a code this client does not know: as sent
    shown = await page.evaluate(
        "async (frame) => (await import('/static/js/texts.js')).errorText(frame)", unknown
    )
    assert shown == frame["message"]
    # The connection's banner, said again when the language changes (as a table's error and
    # a toast are: each shown a few seconds, too short to check on a busy machine).
    await page.evaluate("() => window.pokerroom.socket.close()")
    await page.wait_for_function("() => document.querySelector('#connection').dataset.state")
    await switch(page, "nb")
    said = await page.text_content("#connection")
    nb = catalogue("nb")
    assert said in (nb["connection.lost"], nb["connection.back"]), said
    await page.context.close()


NAMED = """async ([language, names, line]) => {
  const i18n = await import('/static/js/i18n.js');
  const texts = await import('/static/js/texts.js');
  await i18n.setLanguage(language);
  return [names.map(texts.handName), texts.replayLine(line)];
}"""


async def test_every_hand_name_and_a_replayer_line_in_each_language(
    browser: Browser, room: Room
) -> None:
    """Each name the server gives a hand (its category and ranks: "Full House, Kings over
    Sevens") is said in each language, in English as the evaluator says it; a replayer line
    puts its seat, amount, pot and hand in the language too."""
    from pokerroom.evaluation.classes import CLASS_COUNT

    named = [protocol.HandName.of(s) for s in range(1, CLASS_COUNT + 1)]
    by_english = {name.english(): name.model_dump(mode="json") for name in named}
    english = sorted(by_english)
    names = [by_english[text] for text in english]
    full_house = by_english["Full House, Kings over Sevens"]
    line = [
        "replay.with_hand",
        {
            "line": [
                "replay.main_pot",
                {"winners": [{"who": "seat 2", "amount": 350}], "pot": 0},
            ],
            "hand": full_house,
        },
    ]
    page = await page_in(browser, room, "en-US", "en")
    expected = {
        "en": ("Full House, Kings over Sevens", "Seat 2 wins $3.50 from the main pot with"),
        "nb": ("Hus, konger over sjuere", "Plass 2 vinner 3,50\xa0$ fra hovedpotten med"),
        "da": ("Fuldt hus, konger over syvere", "Plads 2 vinder 3,50\xa0$ fra hovedpuljen med"),
        "sv": ("Kåk, kungar över sjuor", "Plats 2 vinner 3,50\xa0$ från huvudpotten med"),
        "hu": ("Full, királyok és hetesek", "2. hely nyer: 3,50\xa0$ – főkassza, lap:"),
    }
    for language, (kings_over_sevens, said) in expected.items():
        shown, text = await page.evaluate(
            NAMED, [language, names, {"key": line[0], "params": line[1]}]
        )
        assert shown[names.index(full_house)] == kings_over_sevens
        assert text == f"{said} {kings_over_sevens}", text
        if language == "en":
            assert shown == english
        else:
            assert [n for n, s in zip(english, shown, strict=True) if s == n] == []
    await page.context.close()
