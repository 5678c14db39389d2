import BadgePrint
import CheckInCore
import Foundation
import KioskStore
import Logging

/// Working the jobs: in order, one at a time, each to its end or to `held`.
extension PrintQueue {
    var isStopping: Bool { wakeup.isStopped || Task.isCancelled }

    var outputs: [any BadgeOutput] { [primary] + (failover.map { [$0] } ?? []) }

    func work() async {
        await refreshHealth()
        await resume()
        while !isStopping {
            do {
                if try await workNext() { continue }
                if wakeup.isDraining { break }   // shutting down and nothing left to print
                await wakeup.wait(upTo: configuration.idlePollInterval)
                if !isStopping { await refreshHealth(ifOlderThan: configuration.idlePollInterval) }
            } catch {
                if isStopping { break }   // the reads are cancelled with the task
                // StoreError's words carry no attendee data.
                logger.error("Print queue cannot read its jobs: \(error)")
                await wakeup.wait(upTo: configuration.holdPollInterval)
            }
        }
    }

    /// After a restart: jobs CUPS already has are followed first; the others wait their turn.
    func resume() async {
        guard let jobs = try? await database.printJobs.unfinishedPrintJobs() else { return }
        if !jobs.isEmpty { logger.info("Resuming \(jobs.count) unfinished badge jobs") }
        for job in jobs where job.state == .submitted || job.state == .printing {
            guard !isStopping else { return }
            await followAgain(job)
        }
    }

    /// Works the oldest job that is not set aside. - Returns: false when there is none.
    func workNext() async throws -> Bool {
        try await setAsideStaleJobs()
        let jobs = try await database.printJobs.unfinishedPrintJobs()
        updateQuestion(jobs)
        guard let job = jobs.first(where: { !$0.state.waitsForOperator }) else { return false }
        switch job.state {
        case .submitted, .printing: await followAgain(job)
        default: try await send(job)
        }
        return true
    }

    /// Renders the badge and tries the outputs that can take it, the job's own queue first.
    func send(_ job: PrintJobRecord) async throws {
        // A held job goes out only on fresh news that a printer is back.
        await refreshHealth(ifOlderThan: job.state == .held ? .zero : configuration.holdPollInterval)
        let ready = candidates(for: job).filter(isReady)
        guard !ready.isEmpty else {
            try await hold(reason: holdReason(fallback: job.reason))
            return
        }
        guard let guest = try await database.printJobs.badgeGuest(id: job.guestID) else {
            await settle(job.id, .failed, reason: "The guest is no longer in the roster: there is no badge to print")
            return
        }
        let content = BadgeContent(guest: guest.guest, accessTypeName: guest.accessTypeName)
        let template = templates.template(forAccessType: content.accessTypeID)
        let pdf: Data
        do { pdf = try renderer.pdf(content, template: template) } catch {
            await settle(job.id, .failed, reason: error.description)
            return
        }
        var reason = job.reason
        for output in ready where !isStopping {
            let result = await attempt(on: output).submit(job, pdf: pdf, template: template, timeout: configuration.printTimeout)
            var verdict = result.verdict
            if let outputJobID = result.outputJobID {
                verdict = await waitWhileThePrinterNeedsAPerson(job, verdict: verdict, output: output, outputJobID: outputJobID)
            }
            if await conclude(job, verdict: verdict, output: output, outputJobID: result.outputJobID) { return }
            reason = verdict.reason
        }
        guard !isStopping else { return }
        try await hold(reason: holdReason(fallback: reason))
    }

    /// Follows a job that was out when the station stopped, for what is left of its timeout.
    func followAgain(_ job: PrintJobRecord) async {
        guard let outputJobID = job.cupsJobID else {
            // Allocated but never recorded with an id: it never reached the printer.
            await record(job.id, PrintJobUpdate(state: .queued, newAttempt: true))
            return
        }
        guard let output = outputs.first(where: { $0.queue == job.queue }) else {
            await settle(job.id, .unconfirmed, reason: "The station no longer prints to \(job.queue): check whether the badge came out")
            return
        }
        let waited = Duration.milliseconds(Timestamp.now().milliseconds - (job.submittedAt ?? job.createdAt).milliseconds)
        let deadline = ContinuousClock.now + max(.zero, configuration.printTimeout - waited)
        var verdict = await attempt(on: output).follow(
            job.id, outputJobID: outputJobID, ticket: BadgeTicket(printJobID: job.id, media: ""),
            printing: job.state == .printing, faultSeen: job.faultSeen, deadline: deadline, timeout: configuration.printTimeout)
        verdict = await waitWhileThePrinterNeedsAPerson(job, verdict: verdict, output: output, outputJobID: outputJobID)
        _ = await conclude(job, verdict: verdict, output: output, outputJobID: outputJobID)
    }

    /// Records a try's verdict. - Returns: true when the job is done (final).
    func conclude(_ job: PrintJobRecord, verdict: AttemptVerdict, output: any BadgeOutput, outputJobID: Int?) async -> Bool {
        switch verdict {
        case .interrupted:
            return true
        case .printed:
            await settle(job.id, .printed, reason: nil)
            return true
        case .unconfirmed(let reason):
            await settle(job.id, .unconfirmed, reason: reason)
            return true
        case .failed(let reason):
            // Canceled before it is tried anywhere else (the printer refused or aborted it).
            if let outputJobID { await output.cancel(outputJobID) }
            restingUntil[output.queue] = .now + configuration.retryAfter
            logger.warning("Badge job \(job.id) did not print on \(output.queue): \(reason)")
            failedTries[job.id, default: 0] += 1
            if failedTries[job.id, default: 0] >= configuration.maxFailedTries {
                await settle(job.id, .failed, reason: reason)
                return true
            }
            // Back at its place in the line; the next try is a new printer job.
            await record(job.id, PrintJobUpdate(state: .queued, reason: reason, newAttempt: true))
            return false
        case .timedOut(let reason, let reachedPrinter):
            return await giveUp(job, reason: reason, reachedPrinter: reachedPrinter, output: output, outputJobID: outputJobID)
        case .waitingAtPrinter:
            return await giveUp(job, reason: verdict.reason ?? "", reachedPrinter: true, output: output, outputJobID: outputJobID)
        }
    }

    /// No printer can take the oldest job: it and every job behind it wait, in order, until a
    /// printer is ready again (or a nudge, an answer or shutdown).
    func hold(reason: String) async throws {
        for job in try await database.printJobs.holdWaitingPrintJobs(reason: reason) { report(job) }
        await wakeup.wait(upTo: configuration.holdPollInterval)
    }

    func holdReason(fallback: String?) -> String {
        let faults = outputs.compactMap { health[$0.queue]?.fault }.filter(\.blocksPrinting)
        return faults.first?.sentence ?? fallback ?? "No badge printer can take the badge now: it prints when one is ready"
    }

    /// The job's own queue first; a printer that reports nothing before one that reports a
    /// warning (it still takes badges, but the other is the better bet).
    func candidates(for job: PrintJobRecord) -> [any BadgeOutput] {
        let ordered = outputs.filter { $0.queue == job.queue } + outputs.filter { $0.queue != job.queue }
        return ordered.filter { health[$0.queue]?.fault == nil } + ordered.filter { health[$0.queue]?.fault != nil }
    }

    func isReady(_ output: any BadgeOutput) -> Bool {
        guard health[output.queue]?.canPrint ?? true else { return false }
        return restingUntil[output.queue].map { $0 <= .now } ?? true
    }

    func attempt(on output: any BadgeOutput) -> BadgeAttempt {
        BadgeAttempt(
            database: database, output: output, pollInterval: configuration.pollInterval, logger: logger,
            report: { [weak self] job in await self?.report(job) },
            observe: { [weak self, queue = output.queue] status in await self?.setHealth(status.health, of: queue) },
            shouldStop: { [wakeup] in wakeup.isStopped })
    }

    // MARK: - Jobs that waited too long

    func setAsideStaleJobs() async throws {
        let cutoff = Timestamp.now().adding(milliseconds: -Int64(configuration.staleAfter / .milliseconds(1)))
        let minutes = max(1, Int(configuration.staleAfter / .seconds(60)))
        let reason = "Waited more than \(minutes) min: the operator decides whether it still prints"
        for job in try await database.printJobs.setAsideWaitingPrintJobs(createdBefore: cutoff, reason: reason) { report(job) }
    }

    func updateQuestion(_ jobs: [PrintJobRecord]) {
        let waiting = jobs.filter(\.state.waitsForOperator)
        let next = waiting.isEmpty ? nil : StaleJobsQuestion(
            jobIDs: waiting.map(\.id), otherPrinterAvailable: failover != nil,
            possibleDuplicates: waiting.filter { $0.state == .mayHavePrinted }.map(\.id))
        guard next != question else { return }
        question = next
        continuation.yield(.staleJobs(next))
    }

    // MARK: - Printers

    /// Asks every output (and its printer itself) for its condition.
    func refreshHealth(ifOlderThan age: Duration = .zero) async {
        if let checked = healthCheckedAt, age > .zero, ContinuousClock.now - checked < age { return }
        healthCheckedAt = .now
        await refreshHealth(of: outputs)
    }

    /// Asks these outputs (and their printers themselves) for their condition.
    func refreshHealth(of outputs: [any BadgeOutput]) async {
        for output in outputs {
            let health: PrinterHealth
            do { health = try await output.printerStatus(probeDevice: true).health } catch { health = error.health }
            setHealth(health, of: output.queue)
        }
    }

    func setHealth(_ new: PrinterHealth, of queue: String) {
        guard health[queue] != new else { return }
        health[queue] = new
        logger.info("Badge printer \(queue): \(new.fault?.sentence ?? new.words)")
        continuation.yield(.printer(queue: queue, health: new))
    }

    // MARK: - Recording

    func settle(_ id: Int64, _ state: PrintJobState, reason: String?) async {
        failedTries[id] = nil
        await record(id, PrintJobUpdate(state: state, reason: reason, finishedAt: .now()))
    }

    /// Commits a change, then reports it (a report never runs ahead of the database).
    func record(_ id: Int64, _ update: PrintJobUpdate) async {
        do {
            if let job = try await database.printJobs.updatePrintJob(id, update) { report(job) }
        } catch {
            logger.error("Cannot record badge job \(id) as \(update.state.rawValue): \(error)")
        }
    }

    func report(_ job: PrintJobRecord) {
        // Ids and states only: the row's ticket code and the guest stay out of the log.
        logger.debug("badge job \(job.id): \(job.state.rawValue) on \(job.queue)")
        continuation.yield(.job(PrintJobChange(job)))
    }
}
