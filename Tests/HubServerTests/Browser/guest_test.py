#!/usr/bin/env python3
"""The guest lookup, the guest page and the live page's arrivals chart in a real browser:
Debian's chromium driven by Playwright.

Run by GuestBrowserTests (Swift), which starts a real `checkin-hub serve` with an event whose
roster has Ada Lovelace and Lord Byron in order ORD-7, Grace Hopper, and a guest whose name is
hostile (a script tag and an ANSI escape code); a real `kiosk` station of the event is signed in
and synced. Environment:

  HUB_URL, EVENT_ID                      the hub and the event
  ORGANIZER_EMAIL / ORGANIZER_PASSWORD   an organizer
  SCREENSHOT_DIRS, CHROMIUM              as for dashboard_test.py

The Swift suite checks what the station does with the revoked ticket afterwards.
Prints one line per step and exits non-zero with the reason on the first failure.
"""
import os

# Waits use locators, never wait_for_function: the pages' Content-Security-Policy forbids eval.
from playwright.sync_api import expect

from dashboard_common import HUB, fail, launch, number, screenshot, sign_in, step

EVENT = os.environ["EVENT_ID"]
HOSTILE = "<script>alert(1)</script>"


def search(page, text):
    page.goto(f"{HUB}/events/{EVENT}/guests")
    page.fill('[data-test="dashboard-guest-search"]', text)
    page.click('[data-test="dashboard-guest-search-submit"]')
    page.wait_for_url(f"{HUB}/events/{EVENT}/guests?q=**")
    return page.locator('[data-test="dashboard-guest-row"]')


def run(browser):
    expect.set_options(timeout=15_000)
    dialogs = []
    context = browser.new_context(viewport={"width": 412, "height": 860}, device_scale_factor=1)
    context.on("page", lambda p: p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss())))
    live = context.new_page()
    live.set_default_timeout(15_000)
    sign_in(live, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])

    # The live page, left open: it must show the manual check-in by itself.
    live.goto(f"{HUB}/events/{EVENT}")
    expect(live.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    chart = live.locator('[data-test="dashboard-arrivals-chart"]')
    expect(chart).to_have_count(1)
    before = number(live, "checked-in-count")
    bars_before = live.locator('[data-test="dashboard-arrivals-bar"]').count()
    step(f"live page open: {before} checked in, the arrivals chart has {bars_before} bars")
    if "Entries per" not in chart.locator("title").first.text_content():
        fail("the chart has no accessible title")

    page = context.new_page()
    page.set_default_timeout(15_000)
    # By part of the name, in another case.
    rows = search(page, "lovel")
    expect(rows).to_have_count(1)
    if "Ada Lovelace" not in rows.first.inner_text():
        fail(f"searching 'lovel' found {rows.first.inner_text()!r}")
    expect(rows.first.locator('[data-test="dashboard-guest-status"]')).to_have_text("not arrived")
    step("found Ada Lovelace by part of her name")
    # By order code: both guests of the order.
    rows = search(page, "ORD-7")
    expect(rows).to_have_count(2)
    names = rows.all_inner_texts()
    if not any("Ada Lovelace" in n for n in names) or not any("Lord Byron" in n for n in names):
        fail(f"searching the order code found {names}")
    step("found both guests of order ORD-7 by the order code")
    screenshot(page, "guests.png")

    # Ada's page: a manual check-in.
    rows.filter(has_text="Ada Lovelace").locator("a").click()
    page.wait_for_url(f"{HUB}/events/{EVENT}/guests/**")
    expect(page.locator('[data-test="dashboard-guest-status"]')).to_have_text("not arrived")
    page.click('[data-test="dashboard-manual-checkin"]')
    page.wait_for_url("**?done=checked-in")
    expect(page.locator('[data-test="dashboard-guest-notice"]')).to_contain_text("Checked in at")
    expect(page.locator('[data-test="dashboard-guest-status"]')).to_have_text("inside")
    history = page.locator('[data-test="dashboard-guest-history-row"]')
    expect(history).to_have_count(1)
    if "Dashboard" not in history.first.inner_text() or "admitted" not in history.first.inner_text():
        fail(f"the history row does not say where and what: {history.first.inner_text()!r}")
    step(f"checked Ada in by hand; history: {history.first.inner_text()!r}")

    # The live page, never reloaded, shows it: the count and a bar of the chart.
    expect(live.locator('[data-test="dashboard-checked-in-count"]')).to_have_text(str(before + 1))
    expect(live.locator('[data-test="dashboard-arrivals-bar"]').first).to_be_visible()
    entries = sum(int(b.get_attribute("data-entries")) for b in live.locator('[data-test="dashboard-arrivals-bar"]').all())
    if entries < before + 1:
        fail(f"the chart's bars hold {entries} entries, fewer than the {before + 1} check-ins")
    step(f"the open live page shows {before + 1} checked in and the chart {entries} entries, without a reload")

    # Checking her in again is refused in words (the rules decide, as for a station).
    page.click('[data-test="dashboard-manual-checkin"]')
    page.wait_for_url("**?done=*")
    notice = page.locator('[data-test="dashboard-guest-notice"]').inner_text()
    if "Already checked in at" not in notice and "already checked in at" not in notice:
        fail(f"a second manual check-in was not refused in words: {notice!r}")
    expect(history).to_have_count(2)
    step(f"a second check-in: {notice!r}")
    screenshot(page, "guest.png")
    page.set_viewport_size({"width": 1100, "height": 900})
    screenshot(page, "guest-wide.png")
    page.set_viewport_size({"width": 412, "height": 860})

    # Lord Byron's ticket is revoked, with a reason.
    rows = search(page, "byron")
    expect(rows).to_have_count(1)
    rows.first.locator("a").click()
    page.wait_for_url(f"{HUB}/events/{EVENT}/guests/**")
    page.fill('[data-test="dashboard-revoke-reason"]', "refunded by phone")
    page.click('[data-test="dashboard-revoke"]')
    page.wait_for_url("**?done=revoked")
    expect(page.locator('[data-test="dashboard-guest-status"]')).to_have_text("revoked")
    expect(page.locator('[data-test="dashboard-guest-action-row"]').first).to_contain_text("refunded by phone")
    expect(page.locator('[data-test="dashboard-restore"]')).to_have_count(1)
    step("revoked Lord Byron's ticket with a reason")
    screenshot(page, "guest-revoked.png")

    # A hostile name is text, in the lookup and on its page; nothing runs.
    rows = search(page, "script")
    expect(rows).to_have_count(1)
    shown = rows.first.locator('[data-test="dashboard-guest-name"]').inner_text()
    if HOSTILE not in shown or "\x1b" in shown:
        fail(f"the hostile name is not shown as plain text: {shown!r}")
    rows.first.locator("a").click()
    page.wait_for_url(f"{HUB}/events/{EVENT}/guests/**")
    if HOSTILE not in page.locator('[data-test="dashboard-guest-name"]').inner_text():
        fail("the guest page does not show the hostile name as text")
    if page.locator("script:not([src])").count() != 0:
        fail("an inline script element reached the page")
    step("a name with a script tag and an escape code is shown as text")

    live.set_viewport_size({"width": 412, "height": 860})
    screenshot(live, "live.png")
    live.set_viewport_size({"width": 1100, "height": 800})
    screenshot(live, "live-wide.png")
    if dialogs:
        fail(f"a dialog opened: {dialogs}")


if __name__ == "__main__":
    launch(run)
