#!/usr/bin/env python3
"""Hostile text on the dashboard in a real browser: Debian's chromium driven by Playwright.

Run by HostileTextBrowserTests (Swift), which starts a real `checkin-hub serve` and puts text
built to slip through HTML escaping into the hub (a roster import, walk-ins, check-ins, station
registrations and health reports, through the API as a station sends them). Environment:

  HUB_URL, EVENT_ID                      the hub and the event
  NAMED_EVENT_ID                         (sweep) an event whose name is hostile
  ORGANIZER_EMAIL / ORGANIZER_PASSWORD   an organizer
  MODE        sweep: every page that shows the hostile text, the live page's update and the
              guest search through a link; no element or attribute may come from data.
              one-click: the review's variants A and B (the guest page's "Check in now" and
              the review page's "Mark reviewed" must do what they say, nothing else).
              zero-click: the review's variant C (a station named <meta http-equiv=refresh>
              must not move the live page, in its update or as first served).
  HOSTILE     (sweep) JSON list of {label, payload, email}
  GUEST_IDS   JSON list of guest ids whose pages are opened
  UPLOADS     JSON list of {method, url, token, body}: API requests sent while the live page is open
  SCREENSHOT_DIRS, CHROMIUM              as for dashboard_test.py

Prints one line per step and exits non-zero with every finding on failure.
"""
import json
import os
import urllib.parse
import urllib.request

# Waits use locators, never wait_for_function: the pages' Content-Security-Policy forbids eval.
from playwright.sync_api import expect

from dashboard_common import HUB, fail, injected, launch, screenshot, sign_in, step

EVENT = os.environ["EVENT_ID"]
LIVE = f"{HUB}/events/{EVENT}"
TAG = '<x-pwn data-pwn="t">'
findings = []


def look(page, where, shows=None):
    """Records what on the page came from data; `shows`: text the page must show as text."""
    found = injected(page)
    if found:
        findings.append(f"{where}: {found[:6]}")
    if shows is not None and shows not in page.locator("body").text_content():
        findings.append(f"{where}: does not show {shows!r} as text")


def send(upload):
    request = urllib.request.Request(upload["url"], data=upload["body"].encode("utf-8"), method=upload["method"], headers={
        "Authorization": "Bearer " + upload["token"], "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        if answer.status != 200:
            fail(f"the upload was answered {answer.status}")


def guests_link(query):
    return f"{LIVE}/guests?q=" + urllib.parse.quote(query, safe="")


def sweep(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])
    look(page, "events", shows=TAG)
    for path in ["", "/edit", "/guests?q=N"]:
        page.goto(f"{HUB}/events/{os.environ['NAMED_EVENT_ID']}{path}")
        look(page, f"an event named with markup, {path or 'live page'}", shows=TAG)

    page.goto(LIVE)
    expect(page.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    look(page, "live page", shows=TAG)
    feed = page.locator('[data-test="dashboard-feed-row"]').filter(has_text='data-pwn="sse"')
    for upload in json.loads(os.environ["UPLOADS"]):
        send(upload)
    try:
        expect(feed).to_have_count(1, timeout=10_000)
    except AssertionError:
        findings.append(f"live page update: the uploaded check-in never appeared as text (the page is at {page.url})")
    look(page, "live page after its update", shows='data-pwn="sse"')
    screenshot(page, "hostile-live.png")
    step("live page, as served and after its server-sent update")

    for path, name in [("stations", "stations"), ("review", "review"), ("edit", "event edit")]:
        page.goto(f"{LIVE}/{path}")
        look(page, name, shows=TAG if path != "edit" else None)
        if path == "review":
            screenshot(page, "hostile-review.png")
    page.goto(guests_link("Hx"))
    look(page, "guest list", shows=TAG)
    step("stations, review, event edit and guest list pages")

    for guest in json.loads(os.environ["GUEST_IDS"]):
        page.goto(f"{LIVE}/guests/{urllib.parse.quote(guest, safe='')}")
        look(page, f"guest page {guest}", shows=None if guest.startswith("SAFE") else TAG)
    screenshot(page, "hostile-guest.png")
    step(f"{len(json.loads(os.environ['GUEST_IDS']))} guest pages")

    hostile = json.loads(os.environ["HOSTILE"])
    for item in hostile:
        page.goto(guests_link(item["payload"]))
        look(page, f"guest search by link ({item['label']})")
        typed = page.locator('[data-test="dashboard-guest-search"]').input_value()
        if TAG not in typed:
            findings.append(f"guest search by link ({item['label']}): the search box holds {typed!r}")
    step(f"the guest search through a link, {len(hostile)} kinds of text")

    page.goto(f"{HUB}/staff")
    look(page, "staff page", shows=TAG)
    # A roster upload whose rows are refused: the report repeats what it read.
    csv = "code,name,email\n" + "".join(
        f"UP{index},\"{item['payload'].replace(chr(34), chr(34) * 2)}\",\"{item['payload'].replace(chr(34), chr(34) * 2)}\"\n"
        for index, item in enumerate(hostile) if "\x00" not in item["payload"])
    page.goto(f"{LIVE}/roster")
    page.set_input_files('[data-test="dashboard-upload-file"]', files=[{
        "name": hostile[1]["payload"].replace("/", "") + ".csv", "mimeType": "text/csv", "buffer": csv.encode("utf-8")}])
    page.click('[data-test="dashboard-upload-submit"]')
    expect(page.locator('[data-test="dashboard-import-report"], [data-test="dashboard-import-problem"]').first).to_be_visible()
    look(page, "roster upload report")
    step("staff page and a roster upload's report")

    # Before sign-in: the way back and a refused e-mail are shown again.
    stranger = browser.new_context().new_page()
    stranger.goto(f"{HUB}/signin?next=" + urllib.parse.quote("/events/" + hostile[1]["payload"], safe=""))
    look(stranger, "sign-in page with a hostile next")
    stranger.fill('[data-test="dashboard-signin-email"]', hostile[1]["email"])
    stranger.fill('[data-test="dashboard-signin-password"]', "wrong password")
    # Sent as typed, as any client can: the browser's own check of an e-mail field is no defence.
    stranger.locator('[data-test="dashboard-signin-form"]').evaluate("form => { form.noValidate = true; }")
    stranger.click('[data-test="dashboard-signin-submit"]')
    expect(stranger.locator('[data-test="dashboard-signin-error"]')).to_be_visible()
    look(stranger, "sign-in page after a refused hostile e-mail")
    step("the sign-in page")


def click_and_post(page, button):
    """Clicks a form's button; returns the path the browser posted to, once its answer has loaded."""
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        button.click()
    page.wait_for_load_state()
    step(f"POST {urllib.parse.urlparse(answer.value.url).path}: {answer.value.status}")
    return urllib.parse.urlparse(answer.value.url).path


def one_click(browser):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])
    guest = json.loads(os.environ["GUEST_IDS"])[0]
    one_click_variant(page, "A", f"{LIVE}/guests/{guest}", page.locator('[data-test="dashboard-manual-checkin"]'),
                      f"/events/{EVENT}/guests/{guest}/checkin", "one-click-guest.png")
    one_click_variant(page, "B", f"{LIVE}/review",
                      page.locator('[data-test="dashboard-walk-in-row"]').first.locator('[data-test="dashboard-mark-reviewed"]'),
                      f"/events/{EVENT}/review/mark", "one-click-review.png")


def one_click_variant(page, variant, url, button, expected, shot):
    """Opens `url` as the organizer and clicks `button`, the page's own: it must post to `expected`."""
    page.goto(url)
    look(page, f"variant {variant}, {url}")
    action = button.evaluate("button => button.form.getAttribute('action')")
    step(f"variant {variant}: the button belongs to a form to {action}")
    screenshot(page, shot)
    posted = click_and_post(page, button)
    if posted != expected:
        findings.append(f"variant {variant}: the button posted to {posted}, not to {expected}")
    step(f"variant {variant}: the click posted to {posted} and ended on {page.url}")


def zero_click(browser):
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])
    page.goto(LIVE)
    expect(page.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    feed = page.locator('[data-test="dashboard-feed-row"]')
    for upload in json.loads(os.environ["UPLOADS"]):
        send(upload)
    try:
        expect(feed).to_have_count(1, timeout=10_000)
    except AssertionError:
        pass
    # A refresh of 0 s would have left by now.
    page.wait_for_timeout(2_000)
    if page.url != LIVE:
        findings.append(f"variant C, the live page's update: the browser went to {page.url}")
    else:
        look(page, "variant C, the live page after its update")
        step("the update with the station's name arrived; the page stayed")
    page.goto(LIVE)
    page.wait_for_timeout(2_000)
    if page.url != LIVE:
        findings.append(f"variant C, the live page as served: the browser went to {page.url}")
    else:
        look(page, "variant C, the live page as served", shows="<meta http-equiv=refresh")
        step("the live page as served shows the station's name as text and stays")
    screenshot(page, "zero-click-live.png")


def run(browser):
    try:
        {"sweep": sweep, "one-click": one_click, "zero-click": zero_click}[os.environ["MODE"]](browser)
    except Exception as error:
        # What was found before a step broke (markup from data often breaks the page) is the finding.
        findings.append(f"a step failed: {error}".split("\n")[0])
    if findings:
        fail("data became markup:\n  " + "\n  ".join(findings))
    step("no element or attribute came from data")


if __name__ == "__main__":
    launch(run)
