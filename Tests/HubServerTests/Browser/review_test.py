"""The review page in chromium against a real hub (run by ReviewBrowserTests.swift).

The Swift suite has set the scene with real stations: two offline doors admitted the same
single-entry ticket (a conflict) and one door added a walk-in with the registration's e-mail
(a possible duplicate, named with markup). This script signs in as the organizer and:
marks the conflict reviewed, merges the walk-in, undoes the conflict's first admission;
each through the page's own forms, checking what the page says after each.

Environment (besides dashboard_common's): EVENT_ID, ORGANIZER_EMAIL, ORGANIZER_PASSWORD,
REGISTRATION_NAME, WALK_IN_NAME.
"""
import os

from dashboard_common import HUB, fail, launch, screenshot, sign_in, step

EVENT = os.environ["EVENT_ID"]
REVIEW = f"{HUB}/events/{EVENT}/review"
REGISTRATION = os.environ["REGISTRATION_NAME"]
WALK_IN = os.environ["WALK_IN_NAME"]


def rows(page, kind):
    return page.locator(f'[data-test="dashboard-{kind}-row"]')


def reviewed(page, kind):
    return page.locator(f'[data-test="dashboard-reviewed-row"][data-kind="{kind}"]')


def expect_count(locator, count, what):
    if locator.count() != count:
        fail(f"{what}: expected {count}, the page shows {locator.count()}")


def submit(page, row, button, notice):
    """Clicks a row's form button and waits for the page to come back saying `notice`."""
    with page.expect_navigation():
        row.locator(f'[data-test="dashboard-{button}"]').click()
    if "/review?done=" not in page.url:
        fail(f"{button} did not come back to the review page: {page.url}")
    said = page.locator('[data-test="dashboard-review-notice"]').inner_text()
    if notice not in said:
        fail(f"after {button} the page says {said!r}, expected {notice!r}")


def run(browser):
    dialogs = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    sign_in(page, os.environ["ORGANIZER_EMAIL"], os.environ["ORGANIZER_PASSWORD"])

    step("the live page links to the review page")
    page.goto(f"{HUB}/events/{EVENT}")
    with page.expect_navigation():
        page.click('[data-test="dashboard-review-link"]')
    if page.url != REVIEW:
        fail(f"the review link went to {page.url}")

    step("the conflict: the guest, both admissions with station, operator and time, and the hub's decision")
    conflicts = rows(page, "conflict")
    expect_count(conflicts, 1, "conflict rows")
    conflict = conflicts.first
    if conflict.locator('[data-test="dashboard-review-guest"]').inner_text() != REGISTRATION:
        fail(f"the conflict names {conflict.locator('[data-test=dashboard-review-guest]').inner_text()!r}")
    first = conflict.locator('[data-test="dashboard-review-first"]').inner_text()
    second = conflict.locator('[data-test="dashboard-review-upload"]').inner_text()
    if "Door A" not in first or "Alex" not in first or "Door B" not in second:
        fail(f"the admissions read {first!r} and {second!r}")
    if "already checked in" not in conflict.locator('[data-test="dashboard-review-decision"]').inner_text():
        fail("the conflict does not say what the hub decided")

    step("the walk-in with the registration's e-mail is a possible duplicate, its name shown as text")
    walk_ins = rows(page, "walk-in")
    expect_count(walk_ins, 1, "walk-in rows")
    walk_in = walk_ins.first
    if walk_in.locator('[data-test="dashboard-review-guest"]').inner_text() != WALK_IN:
        fail(f"the walk-in's name reads {walk_in.locator('[data-test=dashboard-review-guest]').inner_text()!r}, expected it as typed")
    if page.locator("main img").count() != 0:
        fail("markup in a guest's name became an element")
    if REGISTRATION not in walk_in.locator('[data-test="dashboard-review-registration"]').inner_text():
        fail("the walk-in does not name the registration it may duplicate")
    if page.locator('[data-test="dashboard-review-count"]').inner_text() != "2":
        fail(f"to review: {page.locator('[data-test=dashboard-review-count]').inner_text()}")
    screenshot(page, "review.png")

    step("mark the conflict reviewed: it moves under reviewed, with who")
    submit(page, rows(page, "conflict").first, "mark-reviewed", "Marked reviewed")
    expect_count(rows(page, "conflict"), 0, "conflicts to review")
    expect_count(reviewed(page, "conflict"), 1, "reviewed conflicts")
    mark = reviewed(page, "conflict").first.locator('[data-test="dashboard-review-mark"]').inner_text()
    if "Reviewed by Olga Organizer" not in mark:
        fail(f"the reviewed conflict says {mark!r}")

    step("merge the walk-in into the registration")
    submit(page, rows(page, "walk-in").first, "merge", "Merged")
    expect_count(rows(page, "walk-in"), 0, "walk-ins to review")
    merged = reviewed(page, "walk_in")
    expect_count(merged, 1, "merged walk-ins")
    if "Merged into " + REGISTRATION not in merged.first.locator('[data-test="dashboard-review-mark"]').inner_text():
        fail("the merged walk-in does not say into whom, by whom")

    step("undo the conflict's first admission")
    submit(page, reviewed(page, "conflict").first, "undo-admission", "Admission undone")
    if reviewed(page, "conflict").first.locator('[data-test="dashboard-review-undone"]').count() != 1:
        fail("the first admission is not shown as undone")
    if reviewed(page, "conflict").first.locator('[data-test="dashboard-undo-admission"]').count() != 0:
        fail("an undone admission still offers its undo")
    if page.locator('[data-test="dashboard-review-count"]').inner_text() != "0":
        fail("items are left to review")

    step("the page on a phone")
    phone = browser.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=2, is_mobile=True, has_touch=True)
    phone.add_cookies(context.cookies())
    small = phone.new_page()
    small.goto(REVIEW)
    width = small.evaluate("document.documentElement.scrollWidth")
    if width > 412:
        fail(f"the review page scrolls sideways on a phone ({width} px)")
    screenshot(small, "review-phone.png")
    if dialogs:
        fail(f"a script ran in the page: {dialogs}")
    step("done")


launch(run)
