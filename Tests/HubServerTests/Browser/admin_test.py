#!/usr/bin/env python3
"""The organizer's pages in a real browser: Debian's chromium driven by Playwright.

Run by AdminBrowserTests (Swift), which starts a real `checkin-hub serve`, creates the accounts
and a signed-in station, and passes everything in the environment:

  HUB_URL                                the hub, e.g. http://127.0.0.1:41234
  ORGANIZER_EMAIL / ORGANIZER_PASSWORD   an organizer
  SUPPORT_EMAIL / SUPPORT_PASSWORD       support staff (the staff page is not theirs)
  STATION_NAME                           a station signed in to the hub (its session is revoked here)
  SCREENSHOT_DIRS                        folders (separated by ':') that get a PNG of each page
  CHROMIUM                               the browser binary (default /usr/bin/chromium)

Prints one line per step (the created event as `event: ID`) and exits non-zero with the reason
on the first failure.
"""
import os
import re
import tempfile

# Waits use locators, never wait_for_function: the pages' Content-Security-Policy forbids eval.
from playwright.sync_api import expect

from dashboard_common import HUB, fail, launch, number, screenshot, sign_in, step

OWN_NEW_PASSWORD = "organizer pass 2"
NEW_STAFF = {"name": "Sam Door", "email": "sam.door@example.org", "password": "sam first pass", "new_password": "sam second pass"}
GOOD_ROWS = 3
ROSTER = (
    "code,name,email,access_type,seat\n"
    "WG0001,Ana Winter,ana@example.org,General,A1\n"
    ",No Code,nocode@example.org,General,A2\n"
    "WG0003,Ben <script>alert(1)</script>,ben@example.org,Day pass,A3\n"
    "WG0004,Cleo Frost,not-an-email,General,A4\n"
    "WG0005,Dan Snow,dan@example.org,Day pass,A5\n"
)


def rejected_lines(page):
    rows = page.locator('[data-test="dashboard-import-rejected-row"]')
    return [rows.nth(i).inner_text() for i in range(rows.count())]


def confirm(row, form):
    """Types the organizer's own password into a staff form that asks for it again."""
    row.locator(f'[data-test="{form}"] [data-test="dashboard-staff-confirm-password"]').fill(os.environ["ORGANIZER_PASSWORD"])


def run(browser):
    expect.set_options(timeout=15_000)
    files = tempfile.mkdtemp(prefix="admin-test-")
    # A phone-sized window: the pages must work there.
    organizer = browser.new_context(viewport={"width": 412, "height": 860}, device_scale_factor=1)
    page = organizer.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])

    # An event with two access types, one of them re-entry with a time window.
    page.click('[data-test="dashboard-new-event"]')
    page.wait_for_url(f"{HUB}/events/new")
    page.fill('[data-test="dashboard-event-name-input"]', "Winter Gala")
    page.fill('[data-test="dashboard-event-zone"]', "Mars/Olympus")
    page.fill('[data-test="dashboard-event-starts"]', "2026-12-01T18:00")
    page.fill('[data-test="dashboard-event-ends"]', "2026-12-01T17:00")
    page.click('[data-test="dashboard-event-save"]')
    problems = page.locator('[data-test="dashboard-event-problems"]')
    expect(problems).to_contain_text("is no time zone")
    expect(problems).to_contain_text("The end is before the start")
    step("a bad time zone and an end before the start are answered in words")
    page.fill('[data-test="dashboard-event-zone"]', "Europe/Berlin")
    page.fill('[data-test="dashboard-event-ends"]', "2026-12-01T23:30")
    page.click('[data-test="dashboard-event-save"]')
    page.wait_for_url(re.compile(r".*/events/[^/]+/edit\?saved=created"))
    event = page.url.split("/events/")[1].split("/")[0]
    step(f"event: {event}")

    page.fill('[data-test="dashboard-access-type-name-input"]', "General")
    page.click('[data-test="dashboard-access-type-save"]')
    expect(page.locator('[data-test="dashboard-saved"]')).to_have_text("Access type saved.")
    page.fill('[data-test="dashboard-access-type-name-input"]', "Day pass")
    page.check('[data-test="dashboard-access-type-reentry"]')
    page.fill('[data-test="dashboard-access-type-from"]', "2026-12-01T17:00")
    page.fill('[data-test="dashboard-access-type-until"]', "2026-12-01T22:00")
    page.click('[data-test="dashboard-access-type-save"]')
    types = page.locator('[data-test="dashboard-access-type"]')
    expect(types).to_have_count(2)
    day = page.locator('[data-test="dashboard-access-type"][data-access-type-id="day-pass"]')
    expect(day.locator('[data-test="dashboard-access-type-rule"]')).to_have_text("re-entry")
    expect(day.locator('[data-test="dashboard-access-type-window"]')).to_have_text("valid 2026-12-01 17:00 – 2026-12-01 22:00")
    general = page.locator('[data-test="dashboard-access-type"][data-access-type-id="general"]')
    expect(general.locator('[data-test="dashboard-access-type-rule"]')).to_have_text("single entry")
    step("two access types: General (single entry), Day pass (re-entry, 17:00 – 22:00 Berlin)")

    # Edit: a new name and tolerance window.
    page.fill('[data-test="dashboard-event-name-input"]', "Winter Gala 2026")
    page.fill('[data-test="dashboard-event-window"]', "45")
    page.click('[data-test="dashboard-event-save"]')
    expect(page.locator('[data-test="dashboard-saved"]')).to_have_text("Event saved.")
    expect(page.locator('[data-test="dashboard-event-name-input"]')).to_have_value("Winter Gala 2026")
    expect(page.locator('[data-test="dashboard-event-window"]')).to_have_value("45")
    expect(page.locator('[data-test="dashboard-event-starts"]')).to_have_value("2026-12-01T18:00")
    step("the event was edited: new name, tolerance window 45 s, dates kept in Berlin time")
    day.locator("summary").click()
    screenshot(page, "event-edit.png")

    # The live page in a second tab, to watch the upload arrive without a reload.
    live = organizer.new_page()
    live.set_default_timeout(15_000)
    live.goto(f"{HUB}/events/{event}")
    expect(live.locator('[data-test="dashboard-live-status"]')).to_have_text("Live")
    if number(live, "expected-count") != 0:
        fail("a new event's live page expects guests already")
    live.wait_for_timeout(300)

    roster = os.path.join(files, "winter-gala.csv")
    with open(roster, "w", encoding="utf-8") as out:
        out.write(ROSTER)
    page.goto(f"{HUB}/events/{event}/roster")
    page.set_input_files('[data-test="dashboard-upload-file"]', roster)
    page.click('[data-test="dashboard-upload-submit"]')
    expect(page.locator('[data-test="dashboard-import-report"]')).to_be_visible()
    if number(page, "import-imported") != GOOD_ROWS:
        fail(f"the report says {number(page, 'import-imported')} imported, not {GOOD_ROWS}")
    lines = rejected_lines(page)
    if len(lines) != 2 or not lines[0].startswith("3") or not lines[1].startswith("5"):
        fail(f"the rejected rows are not lines 3 and 5 with reasons: {lines}")
    if any(len(line.split(None, 1)) < 2 for line in lines):
        fail(f"a rejected row has no reason: {lines}")
    expect(page.locator('[data-test="dashboard-import-ignored"]')).to_contain_text("seat")
    step(f"uploaded: {GOOD_ROWS} imported, rejected {lines}")
    screenshot(page, "upload-report.png")
    expect(live.locator('[data-test="dashboard-expected-count"]')).to_have_text(str(GOOD_ROWS), timeout=10_000)
    step("the live page shows the new guests without a reload")

    # Broken files: said in words, nothing changed.
    fake = os.path.join(files, "guests.xlsx")
    with open(fake, "w", encoding="utf-8") as out:
        out.write("code,name\nXX1,Someone\n")
    blob = os.path.join(files, "photo.csv")
    with open(blob, "wb") as out:
        out.write(bytes((i * 131 + 17) % 256 for i in range(20_000)))
    for path, words in [(fake, "named like an Excel workbook"), (blob, "neither text (CSV) nor an Excel workbook")]:
        page.set_input_files('[data-test="dashboard-upload-file"]', path)
        page.click('[data-test="dashboard-upload-submit"]')
        expect(page.locator('[data-test="dashboard-import-problem"]')).to_contain_text(words)
        step(f"{os.path.basename(path)}: {page.locator('[data-test=dashboard-import-problem]').inner_text()}")
    screenshot(page, "upload-problem.png")

    # An upload without the CSRF token: 403, nothing imported.
    answer = page.request.post(f"{HUB}/events/{event}/roster", multipart={
        "file": {"name": "more.csv", "mimeType": "text/csv", "buffer": b"code,name\nWG0100,Mallory\n"},
    })
    if answer.status != 403:
        fail(f"an upload without its CSRF token was answered {answer.status}, not 403")
    live.reload()
    if number(live, "expected-count") != GOOD_ROWS:
        fail("a refused upload or a broken file changed the roster")
    step("an upload without its CSRF token was refused with 403; the roster is unchanged")

    # Staff: add a person, assign them to the event.
    page.goto(f"{HUB}/events")
    page.click('[data-test="dashboard-staff-link"]')
    page.wait_for_url(f"{HUB}/staff")
    page.fill('[data-test="dashboard-staff-add-name"]', NEW_STAFF["name"])
    page.fill('[data-test="dashboard-staff-add-email"]', NEW_STAFF["email"])
    page.select_option('[data-test="dashboard-staff-add-role"]', "staff")
    page.fill('[data-test="dashboard-staff-add-password"]', NEW_STAFF["password"])
    # Adding someone asks for the organizer's own password again: a wrong one is said in words.
    add_form = page.locator('[data-test="dashboard-staff-add-form"]')
    add_form.locator('[data-test="dashboard-staff-confirm-password"]').fill("not my password")
    page.click('[data-test="dashboard-staff-add"]')
    expect(page.locator('[data-test="dashboard-staff-problems"]')).to_contain_text("That is not your password")
    expect(page.locator(f'[data-test="dashboard-staff-row"][data-email="{NEW_STAFF["email"]}"]')).to_have_count(0)
    expect(page.locator('[data-test="dashboard-staff-add-email"]')).to_have_value(NEW_STAFF["email"])
    step("a wrong password of the organizer's own refused the new account, in words")
    page.fill('[data-test="dashboard-staff-add-password"]', NEW_STAFF["password"])
    add_form.locator('[data-test="dashboard-staff-confirm-password"]').fill(os.environ["ORGANIZER_PASSWORD"])
    page.click('[data-test="dashboard-staff-add"]')
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("Staff member added")
    if NEW_STAFF["password"] in page.content():
        fail("the initial password was echoed back")
    row = page.locator(f'[data-test="dashboard-staff-row"][data-email="{NEW_STAFF["email"]}"]')
    row.locator('[data-test="dashboard-staff-assign-event"]').select_option(event)
    confirm(row, "dashboard-staff-assign-form")
    row.locator('[data-test="dashboard-staff-assign"]').click()
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("Assigned")
    expect(row.locator('[data-test="dashboard-staff-event"]')).to_contain_text("Winter Gala 2026")
    step("added a staff member and assigned them to the event")

    # They sign in and see the event.
    sams = browser.new_context(viewport={"width": 412, "height": 860})
    sam = sams.new_page()
    sam.set_default_timeout(15_000)
    sign_in(sam, NEW_STAFF["email"], NEW_STAFF["password"])
    expect(sam.locator(f'[data-test="dashboard-event-row"][data-event-id="{event}"]')).to_have_count(1)
    sam.goto(f"{HUB}/events/{event}")
    expect(sam.locator('[data-test="dashboard-event-name"]')).to_have_text("Winter Gala 2026")
    step("the new staff member signed in and sees the event")

    # The station's session, listed with its device and name, is revoked.
    page.reload()
    station = page.locator('[data-test="dashboard-session-row"]').filter(
        has=page.locator('[data-test="dashboard-session-station"]', has_text=os.environ["STATION_NAME"]))
    expect(station).to_have_count(1)
    if not station.locator('[data-test="dashboard-session-device"]').inner_text().strip():
        fail("the station's session shows no device")
    screenshot(page, "staff.png")
    station.locator('[data-test="dashboard-session-revoke"]').click()
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("Session revoked")
    expect(station).to_have_count(0)
    step(f"the session of station {os.environ['STATION_NAME']} was revoked")

    # Disabled: their open session ends; the next page load goes to sign-in.
    row.locator('[data-test="dashboard-staff-disable"]').click()
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("disabled")
    expect(row).to_have_attribute("data-disabled", "true")
    sam.goto(f"{HUB}/events/{event}")
    if "/signin" not in sam.url:
        fail(f"a disabled person's page load was not sent to sign-in: {sam.url}")
    step("disabled: their next page load went to sign-in")

    # Enabled again with a new password: the old one no longer works, the new one does.
    confirm(row, "dashboard-staff-enable-form")
    row.locator('[data-test="dashboard-staff-enable"]').click()
    expect(row).to_have_attribute("data-disabled", "false")
    row.locator('[data-test="dashboard-staff-new-password"]').fill(NEW_STAFF["new_password"])
    confirm(row, "dashboard-staff-password-form")
    row.locator('[data-test="dashboard-staff-reset-password"]').click()
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("Password reset")
    sam.goto(f"{HUB}/signin")
    sam.fill('[data-test="dashboard-signin-email"]', NEW_STAFF["email"])
    sam.fill('[data-test="dashboard-signin-password"]', NEW_STAFF["password"])
    sam.click('[data-test="dashboard-signin-submit"]')
    expect(sam.locator('[data-test="dashboard-signin-error"]')).to_be_visible()
    sign_in(sam, NEW_STAFF["email"], NEW_STAFF["new_password"])
    expect(sam.locator(f'[data-test="dashboard-event-row"][data-event-id="{event}"]')).to_have_count(1)
    step("enabled and reset: the old password is refused, the new one signs in")

    # Support: the staff page is not theirs.
    supports = browser.new_context(viewport={"width": 412, "height": 860})
    support = supports.new_page()
    support.set_default_timeout(15_000)
    sign_in(support, os.environ["SUPPORT_EMAIL"], os.environ["SUPPORT_PASSWORD"])
    for path in ["/staff", "/events/new", f"/events/{event}/roster"]:
        answer = support.goto(f"{HUB}{path}")
        if answer.status not in (403, 404):
            fail(f"support got {answer.status} for {path}")
    answer = support.goto(f"{HUB}/staff")
    if answer.status != 403:
        fail(f"support got {answer.status} for the staff page, not 403")
    expect(support.locator('[data-test="dashboard-problem"]')).to_contain_text("Not for your role")
    step("support got 403 on the staff page")

    # The organizer's own password: the current one is asked for; the change signs out every
    # session of hers, this one too, and the new one signs in.
    page.goto(f"{HUB}/staff")
    own = page.locator('[data-test="dashboard-staff-own-password-form"]')
    own.locator('[data-test="dashboard-staff-own-new-password"]').fill(OWN_NEW_PASSWORD)
    own.locator('[data-test="dashboard-staff-own-current-password"]').fill("not my password")
    own.locator('[data-test="dashboard-staff-change-own-password"]').click()
    expect(page.locator('[data-test="dashboard-staff-problems"]')).to_contain_text("That is not your password")
    own.locator('[data-test="dashboard-staff-own-new-password"]').fill(OWN_NEW_PASSWORD)
    own.locator('[data-test="dashboard-staff-own-current-password"]').fill(os.environ["ORGANIZER_PASSWORD"])
    own.locator('[data-test="dashboard-staff-change-own-password"]').click()
    page.wait_for_url(f"{HUB}/signin**")
    page.fill('[data-test="dashboard-signin-email"]', os.environ["ORGANIZER_EMAIL"])
    page.fill('[data-test="dashboard-signin-password"]', OWN_NEW_PASSWORD)
    page.click('[data-test="dashboard-signin-submit"]')
    expect(page.locator('[data-test="dashboard-staff-notice"]')).to_contain_text("Your password was changed")
    screenshot(page, "staff-own-password.png")
    step("the organizer changed her own password, the current one asked for, and signed in again with the new one")


if __name__ == "__main__":
    launch(run)
