import Foundation

/// Whether two paths lie on the same disk, so that whoever takes one takes the other: the same
/// file system, or two partitions of one disk (`/sys/dev/block/MAJ:MIN` names a partition's
/// disk as its parent folder). File systems without a block device (tmpfs, an overlay) are a
/// disk of their own.
enum DiskIdentity {
    /// The disk holding `path` (or its nearest existing parent), or nil when nothing of it exists.
    static func disk(of path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        while stat(url.path, &info) != 0 {
            guard url.path != "/" else { return nil }
            url.deleteLastPathComponent()
        }
        // glibc's major()/minor() (macros Swift cannot import).
        let dev = UInt64(info.st_dev)
        let (major, minor) = (((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff), (dev & 0xff) | ((dev >> 12) & ~0xff))
        guard major != 0 else { return "fs:\(major):\(minor)" }
        let device = URL(fileURLWithPath: "/sys/dev/block/\(major):\(minor)").resolvingSymlinksInPath()
        let isPartition = FileManager.default.fileExists(atPath: device.appendingPathComponent("partition").path)
        return "disk:" + (isPartition ? device.deletingLastPathComponent() : device).lastPathComponent
    }

    static func sameDisk(_ one: String, _ other: String) -> Bool {
        guard let first = disk(of: one), let second = disk(of: other) else { return false }
        return first == second
    }
}
