import Glibc

/// Decoding yields to the check-in flow: decoder threads run at nice 10, so when the station's
/// two cores are both busy, the flow's threads (nice 0) get about nine tenths of the CPU and
/// the door's feedback stays on time, while an idle machine still gives decoding all it has.
enum DecoderPriority {
    static let niceness: Int32 = 10

    /// Lowers the calling thread's priority. Linux keeps the nice value per thread, and
    /// `setpriority` with `who` 0 applies to the calling thread only (checked: the other
    /// threads of the process keep nice 0).
    static func lowerCurrentThread() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }
}
