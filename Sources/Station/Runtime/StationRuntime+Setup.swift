import CheckInCore
import Foundation
import HubAPI
import KioskStore
import Logging
import OperatorConsole
import RosterCSV
import RosterSync

/// The station day's first steps, for the console's set-up screens (and the configured event
/// when running headless): sign in, list the events, choose one and download its roster.
/// Network work never runs on the actor, so a scan during set-up is still answered at once.
extension StationRuntime {
    /// Signs in to a hub. The password goes to the hub and nowhere else (never logged).
    public nonisolated func signIn(_ credentials: SignInCredentials) async -> SetupAnswer {
        guard let sync else { return .signInRefused("This station was started without a hub connection: restart it to sign in.") }
        do {
            let session = try await sync.signIn(hubURL: credentials.hub, email: credentials.email, password: credentials.password,
                                                stationName: nil)
            logger.notice("signed in on the console", metadata: ["hub": "\(session.hubURL)", "staff": "\(session.staffEmail)"])
            await publishSyncState()
            return .signedIn(as: Self.signedInWords(session))
        } catch {
            logger.warning("sign-in refused", metadata: ["hub": "\(credentials.hub)", "reason": "\(error.description)"])
            // Not "the station keeps working offline": before the first sign-in there is nothing to scan against.
            if case .unreachable(let reason) = error {
                return .signInRefused("Cannot reach the hub (\(reason)): check its address and the network, then press Enter to try again.")
            }
            return .signInRefused(error.description)
        }
    }

    /// "Ada Lovelace (manager) at https://hub.example.org", or nil when not signed in.
    public nonisolated func signedInAs() async -> String? {
        guard let session = await sync?.currentSession(), !session.signedOut else { return nil }
        return Self.signedInWords(session)
    }

    static func signedInWords(_ session: StationSession) -> String {
        Sanitized.text("\(session.staffName) (\(session.staffRole)) at \(session.hubURL)")
    }

    /// The signed-in staff member's events in a range.
    public nonisolated func events(_ range: EventRange) async -> SetupAnswer {
        guard let sync else { return .eventsUnavailable("Not signed in to a hub.") }
        do {
            let events = try await sync.events(range: range)
            let now = Timestamp.now()
            return .events(events.map { Self.choice($0, now: now) }, for: range)
        } catch {
            return .eventsUnavailable(error.description)
        }
    }

    /// The event as the picker shows it, with where it stands by this station's clock.
    static func choice(_ event: EventSummary, now: Timestamp = .now()) -> EventChoice {
        EventChoice(id: Sanitized.text(event.id), name: Sanitized.text(event.name), when: when(event),
                    phase: .of(startsAt: event.startsAt, endsAt: event.endsAt, now: now))
    }

    /// "Sat 28 Nov 09:00 – 18:00" in the venue's time zone ("" without a start).
    static func when(_ event: EventSummary) -> String {
        when(startsAt: event.startsAt, endsAt: event.endsAt, timeZone: event.timeZone)
    }

    /// "Sat 28 Nov 09:00 – 18:00" in `timeZone` ("" without a start).
    static func when(startsAt: Timestamp?, endsAt: Timestamp?, timeZone: String) -> String {
        guard let start = startsAt else { return "" }
        let zone = TimeZone(identifier: timeZone) ?? .current
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_GB")
        day.timeZone = zone
        let thisYear = Calendar.current.dateComponents(in: zone, from: Date()).year
        day.dateFormat = Calendar.current.dateComponents(in: zone, from: start.date).year == thisYear ? "EEE d MMM HH:mm" : "EEE d MMM yyyy HH:mm"
        let time = DateFormatter()
        time.locale = day.locale
        time.timeZone = zone
        time.dateFormat = "HH:mm"
        var text = day.string(from: start.date)
        if let end = endsAt {
            let sameDay = Calendar.current.dateComponents(in: zone, from: start.date).day == Calendar.current.dateComponents(in: zone, from: end.date).day
            text += " – " + (sameDay ? time.string(from: end.date) : day.string(from: end.date))
        }
        return text
    }

    /// Chooses the event (by id, or exact name from the configuration) and downloads its roster,
    /// telling `answer` how far it got; a hub that goes away pauses the download, which resumes
    /// by itself. Changes recorded for another event keep theirs and upload there.
    /// Returns when the roster is here, the event was refused, or the task is cancelled.
    public nonisolated func useEvent(_ selector: String, name: String, answer: @escaping @Sendable (SetupAnswer) -> Void) async {
        guard let sync else {
            answer(.eventRefused("Not signed in to a hub."))
            return
        }
        answer(.downloading(event: name, done: 0, total: nil))
        var failures = 0
        var chosen: EventSummary?
        while chosen == nil, !Task.isCancelled {
            do {
                chosen = try await sync.use(event: selector, pending: .keep)
            } catch {
                guard case .unreachable = error else {
                    logger.warning("event not chosen", metadata: ["event": "\(selector)", "reason": "\(error.description)"])
                    answer(error == .signedOut || error == .notSignedIn ? .signedOut : .eventRefused(error.description))
                    return
                }
                failures += 1
                answer(.downloadPaused(event: name, problem: error.description))
                try? await Task.sleep(for: Self.setupRetry.delay(afterFailures: failures))
            }
        }
        guard let chosen else { return }
        let eventName = Sanitized.text(chosen.name)
        logger.notice("event chosen", metadata: ["event": "\(chosen.id)"])
        await downloadRoster(event: eventName, answer: answer)
    }

    /// Downloads the chosen event's roster until it is complete (resuming after failures).
    public nonisolated func downloadRoster(event: String, answer: @escaping @Sendable (SetupAnswer) -> Void) async {
        guard let sync else { return }
        var failures = 0
        while !Task.isCancelled {
            do {
                try await sync.syncNow { progress in
                    if case .roster(let done, let total, _) = progress { answer(.downloading(event: event, done: done, total: total)) }
                }
                if (try? database.syncEvent())?.complete == true {
                    let guests = (try? database.status(consumeNotice: false).guests) ?? 0
                    logger.notice("roster downloaded", metadata: ["event": "\(event)", "guests": "\(guests)"])
                    answer(.rosterReady(event: event, guests: guests))
                    await publishSyncState()
                    return
                }
            } catch {
                if error == .signedOut || error == .notSignedIn {
                    answer(.signedOut)
                    return
                }
                failures += 1
                answer(.downloadPaused(event: event, problem: error.description))
                try? await Task.sleep(for: Self.setupRetry.delay(afterFailures: failures))
            }
        }
    }

    /// Retries while setting up: soon at first, every 15 s at most (someone is watching).
    static let setupRetry = RetrySchedule(steps: [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(15)])

    /// No hub: the demo roster on an empty station (offered on the sign-in screen).
    public nonisolated func useDemoRoster() async -> SetupAnswer {
        do {
            if try database.roster.importedGuestCount() == 0 {
                let summary = try await database.roster.importRoster(try RosterCSVParser.parse(Data(DemoRoster.csv.utf8)))
                logger.notice("imported the demo roster", metadata: ["guests": "\(summary.imported)"])
            }
            database.searchIndex.indexInBackground()
            return .rosterReady(event: "Demo roster", guests: try database.status(consumeNotice: false).guests)
        } catch {
            return .signInRefused("The demo roster could not be imported: \(error)")
        }
    }

    /// Signed out (or never signed in) with no roster to work on: only the sign-in screen helps.
    public nonisolated func needsSignIn() async -> Bool {
        guard sync != nil else { return false }
        let event = try? database.syncEvent()
        let facts = StationStart.Facts(signedInAs: await signedInAs(), chosenEvent: event?.eventName, chosenEventComplete: event?.complete ?? false,
                                       importedGuests: (try? database.roster.importedGuestCount()) ?? 1, configuredEvent: nil)
        return StationStart.decide(facts) == .signIn
    }
}
