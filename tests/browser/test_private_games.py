"""Private games in the browser (R-PRIV-1): a host creates a game with straddles and run it
twice (a wrong setting is refused next to the form, nothing created), shares the link and the
code; two friends ask to sit by the link and by the code, wait for the host and are approved
(from the prompt and from the game's page), sit and play; the host pauses and resumes, marks
a bomb pot and takes it back, marks it again and changes the stakes (the next hand is the bomb
pot, dealt at them: marked on the felt, everyone dealt in puts it in: R-BOMB-1); everyone
agrees to run it twice and goes all-in (both boards on the felt: R-RIT-1); the host removes a
player and ends the game, each asked to confirm and each logged where the players see it. The
game's ledger page matches the room's ledger to the chip, and each player's balance; its CSV
says the same; its hands open in the replayer; the audit reconciles."""

from __future__ import annotations

import csv
import io
import time

from playwright.async_api import Browser, expect

from tests.browser.conftest import Player, Room, new_player, screenshot
from tests.helpers.audit import audit_database
from tests.helpers.browser import finished_hands, play
from tests.helpers.browser_i18n import Checker, data_names, switch, untranslated
from tests.helpers.browser_layout import PHONE
from tests.helpers.browser_private import (
    GAME_PAGE,
    api,
    bar,
    confirm,
    fill_form,
    play_until,
    root,
    shove_until,
    status,
    take_seat,
    wait_status,
)
from tests.helpers.waiting import eventually

SETTINGS = {
    "name": "Friday game",
    "preset": "multipoker",
    "variant": "holdem",
    "structure": "no_limit",
    "big_blind": "2",
    "seats": "6",
    "decision_seconds": "120",  # nobody times out while the host acts between turns
    "straddle": True,
    "run_it_twice": True,
    "bomb_pot": True,
    "spectators": False,
    "approve_seats": True,
}


# The two boards on the felt's middle, each as its cards.
# Both boards as the felt first draws them whole, kept in the page (``twoBoards``): the next
# hand follows at once and clears them, sooner than a test could read them on a busy machine.
RECORD_BOARDS = """(root) => {
  window.twoBoards = null;
  const read = () => {
    const center = document.querySelector(`${root} .center.two-boards`);
    if (!center || window.twoBoards) return;
    const boards = ['.board', '.second-board'].map((b) =>
      [...center.querySelectorAll(`${b} .card`)].map((c) => c.dataset.card));
    if (boards.every((cards) => cards.length === 5)) window.twoBoards = boards;
  };
  const watched = { subtree: true, childList: true, attributes: true };
  new MutationObserver(read).observe(document.body, watched);
}"""


async def account(room: Room, player: Player) -> tuple[int, int]:
    """The player's account id and balance."""
    me = await room.me(await player.token())
    return int(me["account_id"]), int(me["balance"])


async def wide(player: Player) -> int:
    """How wide the page is laid out (wider than the window: it scrolls sideways)."""
    return int(await player.page.evaluate("document.documentElement.scrollWidth"))


async def test_a_private_game_from_creation_to_its_ledger(
    browser: Browser, quiet_room: Room
) -> None:
    room = quiet_room
    ann = await new_player(browser, room, "ann")
    bob = await new_player(browser, room, "bob")
    cora = await new_player(browser, room, "cora", width=PHONE["width"])  # at phone width
    errors: list[str] = []
    for player in (ann, bob, cora):
        player.page.on("pageerror", lambda error: errors.append(str(error)))
    await ann.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ids = {p.name: (await account(room, p))[0] for p in (ann, bob, cora)}
    before = {p.name: (await account(room, p))[1] for p in (ann, bob, cora)}
    page = ann.page

    # A setting the room refuses is said next to its field; nothing is created.
    await fill_form(page, {**SETTINGS, "seats": "11"})
    await page.click("#private-create")
    await expect(page.locator(".field-error[data-for='seats']")).not_to_be_empty()
    await expect(page.locator("#private-form-error")).not_to_be_empty()
    assert await page.get_attribute("#private-form [name='seats']", "aria-invalid") == "true"
    await fill_form(page, {"seats": "6", "structure": "fixed_limit"})  # no straddle in limit
    await page.click("#private-create")
    await expect(page.locator(".field-error[data-for='straddle']")).not_to_be_empty()
    await expect(page.locator(".field-error[data-for='seats']")).to_be_empty()
    assert (await api(room, ann, "/api/private-games"))["games"] == []

    # Created: its page with the link (copied) and the code.
    await fill_form(page, {"structure": "no_limit"})
    await page.click("#private-create")
    await page.wait_for_selector(GAME_PAGE)
    assert await status(page) == "host"
    (mine,) = (await api(room, ann, "/api/private-games"))["games"]
    game = mine["id"]
    assert mine["settings"]["straddle"] and mine["settings"]["run_it_twice"]
    assert mine["big_blind"] == 200
    code = await page.inner_text("#pg-code")
    assert code == mine["code"]
    link = await page.input_value("#pg-link")
    assert link == f"{room.base}/?invite={mine['invite']}"
    await page.click("#pg-copy")
    await expect(page.locator("#pg-copied")).not_to_be_empty()
    assert await page.evaluate("navigator.clipboard.readText()") == link

    # Bob opens the link, Cora types the code: each waits for the host.
    await bob.page.goto(link)
    await wait_status(bob.page, "pending")
    assert "invite=" not in bob.page.url  # the link is not left in the address
    await cora.page.click("#private-open")
    await cora.page.wait_for_selector("#private-form")
    assert await wide(cora) <= PHONE["width"]  # the form fits a phone
    await cora.page.fill("#private-code", code.lower())  # read case-insensitively
    await cora.page.click("#private-code-ask")
    await wait_status(cora.page, "pending")
    assert not await cora.page.is_visible("#pg-sit")

    # The host approves Bob from the prompt, Cora from the game's page.
    prompt = f".private-request[data-account='{ids['bob']}']"
    await page.wait_for_selector(prompt)
    await page.click(f"{prompt} .approve")
    await page.wait_for_selector(prompt, state="detached")
    cora_row = f"#pg-host .ph-player-list li[data-account='{ids['cora']}']"
    await page.wait_for_selector(f"{cora_row}[data-status='pending']")
    await page.click(f"{cora_row} .approve")
    await page.wait_for_selector(f"{cora_row}[data-status='approved']")
    await wait_status(bob.page, "approved")
    await wait_status(cora.page, "approved")

    # Everyone sits (the host too) and plays.
    await take_seat(bob, game)
    await take_seat(cora, game)
    await take_seat(ann, game)  # the host too, from the game's page
    await page.click(f"{bar(game)} .pb-host summary")  # folded at first: the actions first
    players = [ann, bob, cora]
    await play(players, game, hands=2, seconds=240)
    await screenshot(page, "private-host-table")
    await screenshot(cora.page, "private-phone-table")

    # Paused (the hand in play goes on, no new one is dealt), a bomb pot marked and taken
    # back, then marked again, the stakes changed from the next hand, resumed: the players
    # see each act.
    host_bar = bar(game)
    changed_at = max(f["hand"]["number"] for f in ann.tables(game) if f["hand"])
    await page.click(f"{host_bar} .ph-pause")
    await cora.page.wait_for_selector(f"{bar(game)}[data-paused='true']")
    await cora.page.wait_for_selector(f"{bar(game)} .pb-log li[data-act='pause']")
    await page.fill(f"{host_bar} .ph-bomb-amount", "3")
    await page.click(f"{host_bar} .ph-bomb-set")
    await expect(bob.page.locator(f"{bar(game)} .pb-state")).to_contain_text("3")
    assert (await api(room, bob, f"/api/private-games/{game}"))["bomb_pot_next"] == 3
    await page.click(f"{host_bar} .ph-bomb-clear")
    await bob.page.wait_for_selector(f"{bar(game)} .pb-log li[data-act='bomb_pot'] >> nth=1")
    assert (await api(room, bob, f"/api/private-games/{game}"))["bomb_pot_next"] == 0
    await page.fill(f"{host_bar} .ph-bomb-amount", "3")
    await page.click(f"{host_bar} .ph-bomb-set")
    await bob.page.wait_for_selector(f"{bar(game)} .pb-log li[data-act='bomb_pot'] >> nth=2")
    assert (await api(room, bob, f"/api/private-games/{game}"))["bomb_pot_next"] == 3
    await page.fill(f"{host_bar} .ph-stakes-amount", "4")
    await page.click(f"{host_bar} .ph-stakes-set")
    await bob.page.wait_for_selector(f"{bar(game)} .pb-log li[data-act='stakes']")
    assert (await api(room, bob, f"/api/private-games/{game}"))["big_blind"] == 400
    await page.click(f"{host_bar} .ph-resume")
    await bob.page.wait_for_selector(f"{bar(game)}[data-paused='false']")

    # The next hand dealt is the bomb pot (R-BOMB-1), at the new stakes: marked on the felt,
    # and every player dealt in put its amount in before the flop, with no pre-flop betting.
    marked = await play_until(players, game, ".bomb-pot-mark:not([hidden])", 240)
    await expect(marked.page.locator(f"{root(game)} .bomb-pot-mark")).to_contain_text("3")
    await screenshot(marked.page, "private-bomb-pot")
    frames = marked.tables(game)
    first = next(i for i, f in enumerate(frames) if f["hand"] and f["hand"].get("bomb_pot"))
    bombed, before_bomb = frames[first], frames[first - 1]
    assert bombed["hand"]["bomb_pot"] == {"big_blinds": 3, "amount": 1200}, bombed["hand"]
    bomb_hand = bombed["hand"]["number"]
    in_bomb = [f["hand"] for f in frames if f["hand"] and f["hand"]["number"] == bomb_hand]
    assert all(h["street"] != "preflop" or h["actor"] is None for h in in_bomb), in_bomb
    assert bombed["big_blind"] == 400
    dealt_in = [s for s in bombed["seats"] if s.get("in_hand")]
    assert len(dealt_in) == 3, bombed["seats"]
    for seat in dealt_in:
        stack = before_bomb["seats"][seat["seat"] - 1]["stack"]
        assert stack - seat["stack"] == min(1200, stack), (seat, stack)
    assert sum(bombed["hand"]["pots"]) + sum(s.get("bet") or 0 for s in dealt_in) == 3 * 1200

    played = max(len(finished_hands(p, game)) for p in players)
    await play(players, game, hands=played + 2, seconds=240)
    # The hand in play when paused (or one dealt as the pause was clicked) kept its stakes.
    later = [f for f in ann.tables(game) if f["hand"] and f["hand"]["number"] > changed_at + 1]
    assert later and all(f["big_blind"] == 400 for f in later), later[:1]
    bombs = {
        f["hand"]["number"] for f in ann.tables(game) if f["hand"] and f["hand"].get("bomb_pot")
    }
    assert bombs == {bomb_hand}  # the marked hand only
    (bomb_result,) = [r for r in marked.results(game) if r["hand"] == bomb_hand]
    assert bomb_result["bomb_pot"] == 3, bomb_result

    # Everyone agrees to run it twice (R-RIT-1) and goes all-in: the felt shows both boards.
    for player in players:
        box = f"{root(game)} [data-option='run_it_twice']"
        await player.page.check(box)
        await player.page.wait_for_function("(box) => document.querySelector(box).checked", arg=box)
    for player in players:
        await player.page.evaluate(RECORD_BOARDS, root(game))
    twice = await shove_until(players, game, ".center.two-boards", 240)
    shown = await eventually(lambda: twice.page.evaluate("window.twoBoards"), "both boards drawn")
    await screenshot(twice.page, "private-run-twice")
    result = [r for r in twice.results(game) if r["second_board"]][-1]
    assert shown == [result["board"], result["second_board"]], (shown, result)
    assert len(result["second_board"]) == 5 and result["second_board"] != result["board"]
    assert sorted({p["run"] for p in result["pots"]}) == [1, 2], result["pots"]

    # Cora is removed (asked first), then the game ends (asked first).
    question = await confirm(
        page, f"{host_bar} .ph-player-list li[data-account='{ids['cora']}'] .remove"
    )
    assert "cora" in question
    await cora.page.click(f"{bar(game)} .pb-page")
    await wait_status(cora.page, "removed")
    await confirm(page, f"{host_bar} .ph-end")
    await page.wait_for_selector(f"{bar(game)}[data-ended='true']")
    ended = await api(room, ann, f"/api/private-games/{game}")
    assert ended["ended"]

    # The ledger page: each player's row is the room's, to the chip, and their balance moved
    # by exactly their net; the CSV says the same.
    await page.click(f"{bar(game)} .pb-page")
    await wait_status(page, "ended")
    book = await api(room, ann, f"/api/private-games/{game}/ledger")
    assert book["on_table"] == 0
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # bounded: the page refreshes every few seconds
        rows = await page.locator("#pg-ledger-rows tr[data-account]").count()
        if rows == len(book["players"]):
            break
        await page.wait_for_timeout(200)
    assert {p["name"] for p in book["players"]} == {"ann", "bob", "cora"}
    for entry in book["players"]:
        row = f"#pg-ledger-rows tr[data-account='{entry['account']}']"
        for field in ("buy_ins", "top_ups", "cash_outs", "net"):
            shown = await page.get_attribute(f"{row} [data-field='{field}']", "data-cents")
            assert int(shown or "x") == entry[field], (entry, field, shown)
        kinds = {"buy_in": "buy_ins", "top_up": "top_ups", "cash_out": "cash_outs"}
        for kind, field in kinds.items():
            total = sum(
                e["amount"]
                for e in book["entries"]
                if e["account"] == entry["account"] and e["kind"] == kind
            )
            assert total == entry[field], (entry, kind)
        assert entry["net"] == entry["cash_outs"] - entry["buy_ins"] - entry["top_ups"]
        player = next(p for p in players if p.name == entry["name"])
        assert (await account(room, player))[1] - before[player.name] == entry["net"]
    assert await page.locator("#pg-entries li").count() == len(book["entries"])
    async with page.expect_download() as download:
        await page.click("#pg-csv")
    text = (await (await download.value).path()).read_text("utf-8")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert {int(line["account"]): int(line["net"]) for line in lines} == {
        p["account"]: p["net"] for p in book["players"]
    }

    # The page in Hungarian: no English left, nothing but the catalogue's texts and data.
    await switch(page, "hu")
    names = await data_names(room, "ann", "bob", "cora", SETTINGS["name"], code, link)
    assert await untranslated(page, "#private", Checker("hu", names)) == []
    await screenshot(page, "private-ledger-hu")
    await switch(page, "en")

    # Every act is in the log the players read, in order.
    acts = [a["act"] for a in (await api(room, bob, f"/api/private-games/{game}/log"))["acts"]]
    assert acts[0] == "create" and acts[-1] == "end"
    for act in ("approve", "pause", "resume", "bomb_pot", "stakes", "remove"):
        assert act in acts, acts
    await expect(page.locator("#pg-log li")).to_have_count(len(acts))

    # The game's hands, each opening in the replayer.
    hands = (await api(room, ann, f"/api/private-games/{game}/hands"))["hands"]
    assert len(hands) >= 5
    # What went onto the table and did not come off is the rake of its hands, to the chip.
    kept = sum(p["buy_ins"] + p["top_ups"] - p["cash_outs"] for p in book["players"])
    assert kept == sum(h["rake"] for h in hands), (kept, hands)
    await expect(page.locator("#pg-hands li[data-hand]")).to_have_count(len(hands))
    # A player replays the hands they were dealt into (S-EXPORT-1): the host's newest one.
    newest = next(h["id"] for h in hands if any(p["name"] == "ann" for p in h["players"]))
    await page.click(f"#pg-hands button[data-hand='{newest}']")
    replayer = f".table-view[data-table='{game}'] .replayer[data-hand='{newest}']"
    await page.wait_for_selector(replayer)
    await screenshot(page, "private-replay")

    # The phone-width page is readable: nothing wider than the screen.
    assert await wide(cora) <= PHONE["width"]
    await screenshot(cora.page, "private-phone-page")

    report = await audit_database(room.database)
    assert report.ok, report.problems
    assert not errors, errors


async def test_a_link_opened_before_logging_in_asks_after_it_and_a_denied_player_asks_again(
    browser: Browser, quiet_room: Room
) -> None:
    room = quiet_room
    hal = await new_player(browser, room, "hal")
    page = hal.page
    await fill_form(page, SETTINGS)
    await page.click("#private-create")
    assert await status(page) == "host"
    link = await page.input_value("#pg-link")

    # Where the clipboard is refused, the link is selected for the keyboard's copy.
    await page.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    await page.click("#pg-copy")
    await expect(page.locator("#pg-copied")).not_to_be_empty()
    selected = await page.evaluate(
        "(() => { const box = document.querySelector('#pg-link');"
        " return box.value.slice(box.selectionStart, box.selectionEnd); })()"
    )
    assert selected == link

    # A guest opens the link, signs up, and is asking: the link outlived the log-in.
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    guest = await context.new_page()
    guest.set_default_timeout(15_000)
    await guest.goto(link)
    await guest.wait_for_selector("#auth:not([hidden])")
    await guest.fill("#username", "gus")
    await guest.fill("#password", "correct horse battery")
    await guest.click("#signup")
    await wait_status(guest, "pending")
    assert not await guest.is_visible("#pg-sit")

    # A wrong code is refused beside the code box.
    await guest.click("#private-home-open")
    await guest.fill("#private-code", "ZZZZ-ZZZ")
    await guest.click("#private-code-ask")
    await expect(guest.locator("#private-code-error")).to_have_text(
        "no private game has this code or link"
    )
    await guest.click("#private-games li >> button")  # back to the game from my list
    await wait_status(guest, "pending")

    # Denied from the prompt: the guest sees it and asks again, with the link kept.
    await page.click(".private-request .deny")
    await wait_status(guest, "denied")
    await guest.click("#pg-ask")
    await wait_status(guest, "pending")
    await page.wait_for_selector("#pg-host .ph-player-list li[data-status='pending']")
    await context.close()
