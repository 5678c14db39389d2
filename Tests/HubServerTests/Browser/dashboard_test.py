#!/usr/bin/env python3
"""The dashboard in a real browser: Debian's chromium driven by Playwright.

Run by DashboardBrowserTests (Swift), which starts a real `checkin-hub serve`, creates the
accounts and a signed-in station, and passes everything in the environment:

  HUB_URL             the hub, e.g. http://127.0.0.1:41234
  EVENT_ID            the event whose live page is watched
  ORGANIZER_EMAIL / ORGANIZER_PASSWORD   an organizer
  OUTSIDER_EMAIL / OUTSIDER_PASSWORD     check-in staff of another event only
  UPLOAD_COMMANDS     JSON list of argv lists, run in order: a station checks a guest in and
                      uploads it through the hub's API (kiosk checkin, kiosk sync)
  SCREENSHOT_DIRS     folders (separated by ':') that get a PNG of each page
  RUNNING_STATION_PID a `kiosk run` station of the event, with a PDF printer, that the script
                      finds on the stations page and then stops (SIGTERM)
  CHROMIUM            the browser binary (default /usr/bin/chromium)

Prints one line per step and exits non-zero with the reason on the first failure.
"""
import csv
import io
import json
import os
import signal
import subprocess
import time

# Waits use locators, never wait_for_function: the pages' Content-Security-Policy forbids
# eval, which Playwright's polling of a JavaScript string needs.
from playwright.sync_api import expect

from dashboard_common import HUB, fail, launch, number, screenshot, sign_in, step

EVENT = os.environ["EVENT_ID"]
# The promise: the page shows an upload within 2 s, without a reload.
UPDATE_SECONDS = 2.0


def check_attendance_export(page, checked_in):
    """The attendance export, downloaded as a person does, agrees with the hub: one row per guest,
    the admitted ones with their first admission; UTF-8 with a BOM; formulas disarmed."""
    with page.expect_download() as download:
        page.click('[data-test="dashboard-export-csv"]')
    data = open(download.value.path(), "rb").read()
    if not data.startswith(b"\xef\xbb\xbf"):
        fail("the attendance export has no UTF-8 byte-order mark")
    rows = list(csv.DictReader(io.StringIO(data[3:].decode("utf-8"), newline="")))
    attended = [row for row in rows if row["Attended"] == "yes"]
    if len(attended) != checked_in:
        fail(f"the export has {len(attended)} attended rows, the page {checked_in} checked in")
    guest = next((row for row in rows if row["Ticket code"] == "GALA000002"), None)
    if guest is None or guest["Attended"] != "yes" or guest["Entries"] != "1" or guest["First admission station"] != "Door A":
        fail(f"the uploaded guest's export row is wrong: {guest}")
    formula = next((row for row in rows if row["Ticket code"] == "GALA000013"), None)
    if formula is None or not formula["Name"].startswith("'="):
        fail(f"a name starting with '=' was not disarmed: {formula}")
    step(f"the attendance export ({download.value.suggested_filename}, {len(rows)} guests) shows the {checked_in} admitted and disarms formulas")


def run(browser):
    expect.set_options(timeout=15_000)
    # A phone-sized window: the pages must work there.
    organizer = browser.new_context(viewport={"width": 412, "height": 860}, device_scale_factor=1)
    page = organizer.new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{HUB}/events")
    screenshot(page, "signin.png")
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])
    rows = page.locator('[data-test="dashboard-event-row"]')
    if rows.count() < 1:
        fail("the organizer's event list has no rows")
    step(f"signed in as the organizer; {rows.count()} event rows")
    screenshot(page, "events.png")

    page.locator(f'[data-test="dashboard-event-row"][data-event-id="{EVENT}"] a').click()
    page.wait_for_url(f"{HUB}/events/{EVENT}")
    # The stream is open once the page says Live.
    expect(page.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    before_in, before_inside = number(page, "checked-in-count"), number(page, "inside-count")
    step(f"live page open: {before_in} checked in, {before_inside} inside")
    # Let the first server-sent update arrive before anything changes.
    page.wait_for_timeout(300)

    # The last command uploads (kiosk sync): the hub takes the check-in somewhere inside it.
    commands = json.loads(os.environ["UPLOAD_COMMANDS"])
    for index, command in enumerate(commands):
        if index == len(commands) - 1:
            upload_started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            fail(f"upload step {command[1:2]} exited {done.returncode}: {done.stdout} {done.stderr}")
    uploaded = time.monotonic()
    step(f"a station checked a guest in and uploaded it ({uploaded - upload_started:.2f} s for the sync command)")
    try:
        deadline = uploaded + UPDATE_SECONDS
        expect(page.locator('[data-test="dashboard-checked-in-count"]')).to_have_text(
            str(before_in + 1), timeout=max(1, (deadline - time.monotonic()) * 1000))
        expect(page.locator('[data-test="dashboard-inside-count"]')).to_have_text(
            str(before_inside + 1), timeout=max(1, (deadline - time.monotonic()) * 1000))
    except AssertionError:
        fail(f"the counts did not change within {UPDATE_SECONDS} s of the upload: "
             f"{number(page, 'checked-in-count')} checked in, {number(page, 'inside-count')} inside")
    shown = time.monotonic()
    step(f"the page showed the upload without a reload, {shown - upload_started:.2f} s after the sync command started"
         f" ({max(0.0, shown - uploaded):.2f} s after it ended)")
    feed = page.locator('[data-test="dashboard-feed-row"]')
    if feed.count() < 1 or "Guest 2" not in feed.first.inner_text():
        fail("the latest check-ins feed does not show the uploaded guest")
    step("the latest check-ins feed shows the uploaded guest")
    screenshot(page, "live.png")
    page.set_viewport_size({"width": 1100, "height": 800})
    screenshot(page, "live-wide.png")
    check_attendance_export(page, before_in + 1)

    # The stations page: the running door with its printer in words; stopped, it is marked silent.
    page.goto(f"{HUB}/events/{EVENT}")
    page.click('[data-test="dashboard-stations-link"]')
    page.wait_for_url(f"{HUB}/events/{EVENT}/stations")
    ready = page.locator('[data-test="dashboard-station-row"][data-printer-state="ready"]')
    for _ in range(60):
        if ready.count() > 0:
            break
        page.wait_for_timeout(500)
        page.reload()
    if ready.count() < 1:
        fail("the running station never appeared on the stations page with its printer ready")
    if "printer ready" not in ready.first.inner_text():
        fail(f"the running station's printer is not in words: {ready.first.inner_text()}")
    step("the running station is listed with its printer ready")
    screenshot(page, "stations.png")
    os.kill(int(os.environ["RUNNING_STATION_PID"]), signal.SIGTERM)
    stopped = time.monotonic()
    silent = page.locator('[data-test="dashboard-station-row"][data-printer-state="ready"][data-silent="true"]')
    for _ in range(80):
        page.wait_for_timeout(500)
        page.reload()
        if silent.count() > 0:
            break
    if silent.count() < 1:
        fail("the stopped station was never marked silent")
    step(f"the stopped station was marked silent {time.monotonic() - stopped:.1f} s after it stopped")
    screenshot(page, "stations-silent.png")

    # A form posted without its CSRF token: refused, and the session is untouched.
    with page.expect_navigation() as navigation:
        page.evaluate("""() => {
            const form = document.createElement('form');
            form.method = 'post';
            form.action = '/signout';
            document.body.appendChild(form);
            form.submit();
        }""")
    if navigation.value is None or navigation.value.status != 403:
        fail(f"a form without its CSRF token was answered {navigation.value.status if navigation.value else 'nothing'}, not 403")
    screenshot(page, "csrf-refused.png")
    still = page.goto(f"{HUB}/events/{EVENT}")
    if still.status != 200 or "/signin" in page.url:
        fail("the refused form signed the organizer out")
    step("a form without its CSRF token was refused with 403")

    # Check-in staff of another event: this event's pages do not exist for them.
    outsider = browser.new_context(viewport={"width": 412, "height": 860})
    other = outsider.new_page()
    other.set_default_timeout(15_000)
    sign_in(other, os.environ["OUTSIDER_EMAIL"], os.environ["OUTSIDER_PASSWORD"])
    if other.locator(f'[data-test="dashboard-event-row"][data-event-id="{EVENT}"]').count() != 0:
        fail("staff of another event see this event in their list")
    for path in [f"/events/{EVENT}", f"/events/{EVENT}/live"]:
        answer = other.goto(f"{HUB}{path}")
        if answer.status != 404:
            fail(f"staff of another event got {answer.status} for {path}, not 404")
    other.goto(f"{HUB}/events/{EVENT}")
    screenshot(other, "not-found.png")
    step("staff of another event got 404 on this event's pages")

    # Sign-out through the page's own form (with its token); a second open live page of the
    # same session stops showing counts and goes to the sign-in page by itself.
    second = organizer.new_page()
    second.goto(f"{HUB}/events/{EVENT}")
    expect(second.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    page.click('[data-test="dashboard-signout"]')
    page.wait_for_url(f"{HUB}/signin**")
    step("signed out")
    signed_out = time.monotonic()
    # The stream notices at its next look (a change or its 5 s keep-alive), then the page reloads.
    second.wait_for_url(f"{HUB}/signin**", timeout=40_000)
    step(f"another open live page of that session went to sign-in {time.monotonic() - signed_out:.1f} s later")

    # One sign-in with more live pages than the hub streams to it (4): the extra page says why and
    # what to do, and tries again later instead of reloading itself every second.
    crowd = browser.new_context(viewport={"width": 412, "height": 860})
    first = crowd.new_page()
    first.set_default_timeout(15_000)
    sign_in(first, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])
    tabs = [first] + [crowd.new_page() for _ in range(3)]
    for tab in tabs:
        tab.goto(f"{HUB}/events/{EVENT}")
        expect(tab.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    extra = crowd.new_page()
    loads = []
    extra.on("load", lambda _: loads.append(time.monotonic()))
    extra.goto(f"{HUB}/events/{EVENT}")
    expect(extra.locator('[data-test="dashboard-live-status"]')).to_contain_text("Too many live pages open")
    extra.wait_for_timeout(4000)
    if len(loads) != 1:
        fail(f"the page beyond the account's live pages loaded {len(loads)} times in 4 s: it reloads in a loop")
    screenshot(extra, "live-too-many.png")
    tabs[1].close()
    expect(extra.locator('[data-test="dashboard-live-status"]')).to_have_text("Live", timeout=40_000)
    step("a fifth live page of one sign-in said to close one, did not reload, and went live once one closed")


if __name__ == "__main__":
    launch(run)
