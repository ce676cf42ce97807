"""The header at phone width (390x844) with tables open: still one compact row, each open
table's tab whole and wide enough to read and tap (none squeezed to a sliver), and the
language selector showing something readable (not "Bro" cut from "Browser language")."""

from __future__ import annotations

from playwright.async_api import Browser

from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser import watch
from tests.helpers.browser_layout import PHONE, boxes, inside

# The selected option's text as the select shows it, against the room the select gives it
# (its inner width less the arrow, about 1.2em).
FITS = """() => {
  const select = document.querySelector('#language');
  const text = select.selectedOptions[0].label;
  const style = getComputedStyle(select);
  const probe = document.createElement('span');
  probe.style.font = style.font;
  probe.style.position = 'absolute';
  probe.style.whiteSpace = 'pre';
  probe.textContent = text;
  document.body.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - 1.2 * parseFloat(style.fontSize);
  return { text, needed, room };
}"""


async def test_phone_tabs_stay_readable_and_the_language_selector_is_readable(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann", width=PHONE["width"])
    page = ann.page
    await page.set_viewport_size(PHONE)
    for table in ("casino-nlhe", "nlhe-1-2"):
        await watch(ann, table)
    await screenshot(page, "phone-tabs")
    (header,) = await boxes(page, ".topbar")
    assert header["height"] <= 52, header  # one row
    (strip,) = await boxes(page, "#tabs")
    tabs = await boxes(page, "#tabs .tab[data-tab]")
    assert len(tabs) == 2
    current = await boxes(page, "#tabs .tab[data-tab][aria-current='page']")
    assert len(current) == 1
    # The open table's tab: whole within the strip, its name not cut ("Oslo").
    assert inside(current[0], strip), (current, strip)
    cut = await page.eval_on_selector(
        "#tabs .tab[aria-current='page']", "(tab) => tab.scrollWidth > tab.clientWidth"
    )
    assert not cut and current[0]["width"] >= 40, current
    assert strip["width"] >= 120, strip  # the strip itself has room for a tab or two
    fits = await page.evaluate(FITS)
    assert fits["needed"] <= fits["room"] + 0.5, fits
    assert fits["text"] and not "Browser language".startswith(fits["text"]), fits
