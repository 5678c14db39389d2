"""Seeds a freshly migrated pretix database for the station's tests, and writes what it made.

Run inside pretix's own environment (Kiosk/pretix-server.sh does): the Python of the virtual
environment, with PRETIX_CONFIG_FILE pointing at the test server's configuration, before the
server starts on that database. Everything goes through pretix's Django models, as pretix's own
tests do, so secrets, codes and signed tickets are pretix's own.

    python pretix-seed.py FACTS.json [--orders N]

It creates one organizer with:
- a team API token with every permission (for the tests' own calls: a late order, a position's
  check-ins, a new device), and gate "Main gate";
- devices with initialization tokens: "Door 1" (pretixscan, at the gate), "Door 2" (pretixscan),
  "Online desk" (pretixscan_online_noorders) and "Kiosk" (pretixscan_online_kiosk);
- event "conference" (Europe/Berlin, EUR, random secrets): products General admission, VIP (check-in
  attention and text) and a Workshop add-on; lists "Main entrance" (pending orders included), "Paid
  only" and "VIP lounge" (VIP only); orders paid, with attention, pending, pending awaiting approval,
  canceled, expired, blocked, valid from the future, valid until the past, several positions with an
  add-on, and a name with terminal escapes;
- event "festival" (America/New_York, USD, signed pretix_sig1 secrets): products Day pass, Workshop
  (asked during check-in: a required yes/no waiver, a required session choice and an optional
  phone number; three such orders) and T-shirt bundle (a size shown during
  check-in); lists "All entrances", "At most 2 entries" (a rule) and its online twin, "Open now" and
  "Closed now" (time-of-day rules around the seeding time); orders paid, canceled (its secret
  revoked), blocked (its secret blocked) and valid from the future;
- with --orders N, event "big" (Europe/Berlin, EUR) with N paid orders of one position each,
  created in bulk.

FACTS.json receives the ids, slugs, tokens, and every position's secret and state, with a
`scenario` naming what each position is there to test (see `EventFacts.facts`); the tests read it
as Tests/KioskTestSupport/PretixFacts.swift.
"""

import argparse
import json
import os
import string
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pretix.settings")

import django  # noqa: E402

django.setup()

from django.db import transaction  # noqa: E402
from django.utils.crypto import get_random_string  # noqa: E402
from django.utils.timezone import now  # noqa: E402
from django_scopes import scopes_disabled  # noqa: E402
from zoneinfo import ZoneInfo  # noqa: E402

from pretix.base.models import (  # noqa: E402
    CheckinList, Device, Event, Gate, Item, ItemAddOn, ItemCategory, Order,
    OrderPosition, Organizer, Question, QuestionAnswer, QuestionOption, Quota, Team,
)
from pretix.base.models.orders import BlockedTicketSecret  # noqa: E402
from pretix.base.services.orders import cancel_order  # noqa: E402

# Whole seconds: every time in the facts reads back from pretix exactly as written.
NOW = now().replace(microsecond=0)


def parse_arguments():
    parser = argparse.ArgumentParser(description="Seed a migrated pretix database for the station's tests.")
    parser.add_argument("facts", help="where to write the seeded facts (JSON)")
    parser.add_argument("--orders", type=int, default=0, metavar="N",
                        help="also create event 'big' with N paid one-position orders (bulk)")
    return parser.parse_args()


class Seed:
    """The organizer, with its team token, devices and events."""

    def __init__(self):
        self.organizer = Organizer.objects.create(name="Door Test Organizer", slug="doortest")
        self.web = self.organizer.sales_channels.get(identifier="web")

    # -- organizer ----------------------------------------------------------------------------

    def team_token(self):
        team = Team.objects.create(organizer=self.organizer, name="Test harness", all_events=True,
                                   all_event_permissions=True, all_organizer_permissions=True)
        return team.tokens.create(name="tests").token

    def devices(self, gate):
        made = []
        for name, profile, at_gate in (
            ("Door 1", "pretixscan", gate),
            ("Door 2", "pretixscan", None),
            ("Online desk", "pretixscan_online_noorders", None),
            ("Kiosk", "pretixscan_online_kiosk", None),
        ):
            device = Device.objects.create(organizer=self.organizer, name=name, all_events=True,
                                           security_profile=profile, gate=at_gate)
            made.append({
                "id": device.device_id, "name": name, "security_profile": profile,
                "initialization_token": device.initialization_token,
                "gate": gate_facts(at_gate),
            })
        return made

    # -- events -------------------------------------------------------------------------------

    def event(self, slug, name, time_zone, currency, signed=False):
        zone = ZoneInfo(time_zone)
        opens = NOW.astimezone(zone).replace(hour=8, minute=0, second=0, microsecond=0)
        event = Event.objects.create(
            organizer=self.organizer, slug=slug, name=name, currency=currency, live=True,
            date_from=opens + timedelta(hours=1), date_to=opens + timedelta(days=2, hours=10),
            date_admission=opens, plugins="pretix.plugins.banktransfer,pretix.plugins.ticketoutputpdf,pretix.plugins.badges",
        )
        event.set_defaults()
        event.settings.timezone = time_zone
        event.settings.locale = "en"
        if signed:
            event.settings.ticket_secret_generator = "pretix_sig1"
        return EventFacts(event, signed, self.web)


def gate_facts(gate):
    return {"id": gate.pk, "name": gate.name, "identifier": gate.identifier} if gate else None


def name_parts(full_name):
    given, _, family = full_name.partition(" ")
    return {"_scheme": "given_family", "given_name": given, "family_name": family}


class EventFacts:
    """One event, its products, lists, questions and orders, and their facts."""

    def __init__(self, event, signed, sales_channel):
        self.event = event
        self.signed = signed
        self.sales_channel = sales_channel
        self.items = []
        self.lists = []
        self.questions = []
        self.positions = []
        self.quota = Quota.objects.create(event=event, name="Everything", size=None)

    def item(self, name, price, category=None, **fields):
        item = Item.objects.create(event=self.event, name=name, default_price=Decimal(price), admission=True,
                                   category=category, **fields)
        self.quota.items.add(item)
        self.items.append(item)
        return item

    def checkin_list(self, name, limit_products=(), **fields):
        checkin_list = CheckinList.objects.create(event=self.event, name=name, all_products=not limit_products, **fields)
        checkin_list.limit_products.set(limit_products)
        self.lists.append(checkin_list)
        return checkin_list

    def question(self, text, identifier, kind, items, options=(), **fields):
        question = Question.objects.create(event=self.event, question=text, identifier=identifier, type=kind, **fields)
        question.items.set(items)
        for position, answer in enumerate(options):
            question.options.create(answer=answer, identifier=answer.upper(), position=position)
        self.questions.append(question)
        return question

    def order(self, scenario, lines, status=Order.STATUS_PAID, **fields):
        """An order of `lines`: (item, attendee name, extra position fields) tuples; an extra field
        `addon_to` is the index of the line it is an add-on to. `fields` go to the order."""
        with transaction.atomic():
            order = Order.objects.create(
                event=self.event, status=status, email=f"{scenario.replace('_', '.')}@example.org",
                locale="en", datetime=NOW - timedelta(days=3), expires=NOW + timedelta(days=10),
                total=sum((item.default_price for item, _, _ in lines), Decimal("0")), sales_channel=self.sales_channel, **fields,
            )
            made = []
            for index, (item, attendee, extra) in enumerate(lines, start=1):
                extra = dict(extra)
                answers = extra.pop("answers", {})
                parent = extra.pop("addon_to", None)
                position = OrderPosition.objects.create(
                    order=order, item=item, price=item.default_price, positionid=index,
                    attendee_name_parts=name_parts(attendee), attendee_email=f"guest{index}.{order.code.lower()}@example.org",
                    addon_to=made[parent] if parent is not None else None, **extra,
                )
                for question, answer in answers.items():
                    self.answer(position, question, answer)
                made.append(position)
            order.create_transactions()
        for position in made:
            self.positions.append((scenario, position))
        return order

    @staticmethod
    def answer(position, question, answer):
        if question.type == Question.TYPE_CHOICE:
            option = question.options.get(answer=answer)
            QuestionAnswer.objects.create(orderposition=position, question=question, answer=option.answer).options.set([option])
        else:
            QuestionAnswer.objects.create(orderposition=position, question=question, answer=answer)

    def facts(self, extra_positions=()):
        event = self.event
        event.refresh_from_db()
        valid_keys = [event.settings.ticket_secrets_pretix_sig1_pubkey] if event.settings.ticket_secrets_pretix_sig1_pubkey else []
        return {
            "slug": event.slug, "name": str(event.name), "time_zone": event.settings.timezone,
            "currency": event.currency, "signed": self.signed,
            # When pretix's device/eventselection takes the event as running (admission to end).
            "admission_opens": event.date_admission.astimezone(timezone.utc).isoformat(),
            "ends": event.date_to.astimezone(timezone.utc).isoformat(),
            "secret_generator": event.settings.ticket_secret_generator,
            "valid_keys": valid_keys,
            "items": [{
                "id": item.pk, "name": str(item.name), "admission": item.admission,
                "checkin_attention": item.checkin_attention,
                "checkin_text": str(item.checkin_text) if item.checkin_text else None,
            } for item in self.items],
            "questions": [{
                "id": question.pk, "identifier": question.identifier, "question": str(question.question),
                "type": question.type, "required": question.required,
                "ask_during_checkin": question.ask_during_checkin, "show_during_checkin": question.show_during_checkin,
                "items": sorted(question.items.values_list("pk", flat=True)),
                "options": [{"id": option.pk, "identifier": option.identifier, "answer": str(option.answer)}
                            for option in question.options.all()],
            } for question in self.questions],
            "checkin_lists": [{
                "id": checkin_list.pk, "name": checkin_list.name, "all_products": checkin_list.all_products,
                "limit_products": sorted(checkin_list.limit_products.values_list("pk", flat=True)),
                "include_pending": checkin_list.include_pending,
                "allow_multiple_entries": checkin_list.allow_multiple_entries,
                "allow_entry_after_exit": checkin_list.allow_entry_after_exit,
                # JsonLogic, as the text pretix serves it in the list's `rules`.
                "rules": json.dumps(checkin_list.rules) if checkin_list.rules else None,
            } for checkin_list in self.lists],
            "positions": [position_facts(scenario, position) for scenario, position in self.positions] + list(extra_positions),
        }


def position_facts(scenario, position):
    position.refresh_from_db()
    order = position.order
    return {
        "scenario": scenario,
        "id": position.pk, "positionid": position.positionid, "order": order.code,
        "secret": position.secret,
        "revoked_secrets": list(position.revoked_secrets.values_list("secret", flat=True)),
        "order_status": order.status, "require_approval": order.require_approval,
        "item": position.item_id, "addon_to": position.addon_to_id,
        "attendee_name": position.attendee_name, "company": position.company, "email": position.attendee_email,
        "blocked": position.blocked,
        "valid_from": position.valid_from.isoformat() if position.valid_from else None,
        "valid_until": position.valid_until.isoformat() if position.valid_until else None,
    }


def conference(seed):
    """The plain event: random secrets, every decision of pretix's offline order."""
    record = seed.event("conference", "Door Test Conference", "Europe/Berlin", "EUR")
    general = record.item("General admission", "50.00")
    vip = record.item("VIP", "150.00", checkin_attention=True, checkin_text="VIP: hand over the lanyard")
    addons = ItemCategory.objects.create(event=record.event, name="Workshops", is_addon=True)
    workshop = record.item("Workshop", "20.00", category=addons)
    ItemAddOn.objects.create(base_item=general, addon_category=addons, min_count=0, max_count=1)
    record.checkin_list("Main entrance", include_pending=True)
    record.checkin_list("Paid only", include_pending=False)
    record.checkin_list("VIP lounge", limit_products=[vip], include_pending=False)

    pending = Order.STATUS_PENDING
    record.order("paid", [(general, "Ada Lovelace", {"company": "Analytical Engines Ltd"})])
    record.order("attention", [(vip, "Grace Hopper", {"company": "Navy"})])
    record.order("pending", [(general, "Pat Pending", {})], status=pending)
    record.order("unapproved", [(general, "Una Approved", {})], status=pending, require_approval=True)
    record.order("expired", [(general, "Ex Pired", {})], status=Order.STATUS_EXPIRED)
    record.order("blocked", [(general, "Bea Blocked", {"blocked": ["admin"]})])
    record.order("valid_from_future", [(general, "Fu Ture", {"valid_from": NOW + timedelta(days=30)})])
    record.order("valid_until_past", [(general, "Pa St", {"valid_until": NOW - timedelta(days=1)})])
    record.order("multi", [
        (general, "Alan Turing", {}),
        (general, "Joan Clarke", {}),
        (workshop, "Alan Turing", {"addon_to": 0}),
    ])
    record.order("hostile_name", [(general, "Mallory \x1b[2J\u202eEvil", {"company": "\x1b]0;owned\x07Corp"})])
    canceled = record.order("canceled", [(general, "Cass Canceled", {})], )
    cancel_order(canceled, send_mail=False)
    block_secrets(record)
    return record


def festival(seed):
    """The signed event: pretix_sig1 secrets, check-in rules, questions at the door."""
    record = seed.event("festival", "Signed Ticket Festival", "America/New_York", "USD", signed=True)
    day = record.item("Day pass", "30.00")
    workshop = record.item("Workshop", "45.00")
    shirt = record.item("T-shirt bundle", "40.00")
    # Asked at the door: the orders hold no answer to it.
    record.question("I accept the workshop waiver", "WAIVER", Question.TYPE_BOOLEAN, [workshop],
                    required=True, ask_during_checkin=True)
    record.question("Which session do you attend?", "SESSION", Question.TYPE_CHOICE, [workshop], options=("Morning", "Afternoon"),
                    required=True, ask_during_checkin=True)
    record.question("Emergency phone", "PHONE", Question.TYPE_PHONENUMBER, [workshop], ask_during_checkin=True)
    size = record.question("T-shirt size", "SIZE", Question.TYPE_CHOICE, [shirt], options=("S", "M", "L", "XL"),
                           required=True, show_during_checkin=True)
    record.checkin_list("All entrances", include_pending=False)
    at_most_two = {"<": [{"var": "entries_number"}, 2]}
    record.checkin_list("At most 2 entries", allow_multiple_entries=True, rules=at_most_two)
    record.checkin_list("At most 2 entries (online twin)", allow_multiple_entries=True, rules=at_most_two)
    local = NOW.astimezone(ZoneInfo("America/New_York"))
    record.checkin_list("Open now", rules=time_of_day(local - timedelta(hours=2), local + timedelta(hours=2)))
    record.checkin_list("Closed now", rules=time_of_day(local + timedelta(hours=3), local + timedelta(hours=5)))

    for number in range(1, 6):
        record.order("paid", [(day, f"Festival Guest {number}", {})])
    for name in ("Wendy Waiver", "Quinn Question", "Hal Headless", "Ria Reentry"):
        record.order("question_to_ask", [(workshop, name, {})])
    record.order("answer_shown", [(shirt, "Tess Shirt", {"answers": {size: "M"}})])
    record.order("blocked", [(day, "Bo Blocked", {"blocked": ["admin"]})])
    record.order("valid_from_future", [(day, "Fay Future", {"valid_from": NOW + timedelta(days=30)})])
    canceled = record.order("canceled", [(day, "Cy Canceled", {})])
    cancel_order(canceled, send_mail=False)  # signed: the ticket's secret goes to the revoked list
    block_secrets(record)
    return record


def time_of_day(start, end):
    """A list rule: admitted between two times of day (event time zone), across midnight too."""
    after = {"isAfter": [{"var": "now"}, {"buildTime": ["customtime", start.strftime("%H:%M:%S")]}, None]}
    before = {"isBefore": [{"var": "now"}, {"buildTime": ["customtime", end.strftime("%H:%M:%S")]}, None]}
    return {"and" if start.time() < end.time() else "or": [after, before]}


def block_secrets(record):
    """What pretix does when a position is blocked: its secret goes on the event's blocked list."""
    for _, position in record.positions:
        if position.blocked:
            BlockedTicketSecret.objects.update_or_create(event=record.event, secret=position.secret,
                                                         defaults={"blocked": True, "position": position})


def big(seed, count):
    """`count` paid orders of one position each, created in bulk (a 20,000-position download)."""
    record = seed.event("big", "Big Event", "Europe/Berlin", "EUR")
    general = record.item("General admission", "25.00")
    record.checkin_list("Entrance", include_pending=False)
    organizer = seed.organizer
    codes = unique_strings(count, 7, string.ascii_uppercase + "3456789", set(Order.objects.values_list("code", flat=True)))
    secrets = unique_strings(count, 32, "abcdefghjkmnpqrstuvwxyz23456789", set(OrderPosition.all.values_list("secret", flat=True)))
    pseudonyms = unique_strings(count, 10, "ABCDEFGHJKLMNPQRSTUVWXYZ3789",
                                set(OrderPosition.all.values_list("pseudonymization_id", flat=True)))
    created = NOW - timedelta(days=5)
    batch = 2000
    with transaction.atomic():
        for start in range(0, count, batch):
            numbers = range(start, min(start + batch, count))
            orders = Order.objects.bulk_create([
                Order(event=record.event, organizer=organizer, code=codes[number], status=Order.STATUS_PAID,
                      email=f"big{number}@example.org", locale="en", datetime=created + timedelta(seconds=number),
                      expires=NOW + timedelta(days=10), total=general.default_price, sales_channel=seed.web)
                for number in numbers
            ])
            OrderPosition.objects.bulk_create([
                OrderPosition(order=order, organizer=organizer, item=general, price=general.default_price, positionid=1,
                              tax_rate=Decimal("0"), tax_value=Decimal("0"), secret=secrets[number],
                              pseudonymization_id=pseudonyms[number],
                              attendee_name_parts=name_parts(f"Big Guest{number}"), attendee_name_cached=f"Big Guest{number}")
                for order, number in zip(orders, numbers)
            ])
    rows = OrderPosition.all.filter(order__event=record.event).order_by("pk").values_list(
        "pk", "secret", "order__code", "attendee_name_cached")
    extra = [{
        "scenario": "bulk", "id": pk, "positionid": 1, "order": code, "secret": secret, "revoked_secrets": [],
        "order_status": Order.STATUS_PAID, "require_approval": False, "item": general.pk, "addon_to": None,
        "attendee_name": name, "company": None, "email": None, "blocked": None,
        "valid_from": None, "valid_until": None,
    } for pk, secret, code, name in rows]
    return record, extra


def unique_strings(count, length, alphabet, taken):
    made = []
    seen = set(taken)
    while len(made) < count:
        candidate = get_random_string(length, alphabet)
        if candidate not in seen:
            seen.add(candidate)
            made.append(candidate)
    return made


def main():
    arguments = parse_arguments()
    with scopes_disabled():
        seed = Seed()
        gate = Gate.objects.create(organizer=seed.organizer, name="Main gate", identifier="MAIN")
        token = seed.team_token()
        devices = seed.devices(gate)
        events = [conference(seed).facts(), festival(seed).facts()]
        if arguments.orders > 0:
            record, extra = big(seed, arguments.orders)
            events.append(record.facts(extra))
        facts = {
            "organizer": {"slug": seed.organizer.slug, "name": seed.organizer.name},
            "team_token": token,
            "gates": [gate_facts(gate)],
            "devices": devices,
            "events": events,
            "seeded_at": NOW.isoformat(),
        }
    with open(arguments.facts, "w", encoding="utf-8") as output:
        json.dump(facts, output, indent=1)
    print(f"seeded {sum(len(event['positions']) for event in events)} positions into {len(events)} events", file=sys.stderr)


if __name__ == "__main__":
    main()
