import Foundation

/// Reads the sign-in password without it ever being on the command line: from a file
/// descriptor or an environment variable named by provisioning scripts, else from the terminal
/// with echo off, else (stdin not a terminal) the first line of stdin.
enum SyncPassword {
    static func read(fd: Int32?, environmentVariable: String?) throws -> String {
        if let fd {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
            guard let data = try handle.readToEnd(), let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure("Nothing to read on file descriptor \(fd): pass the password there.", exitCode: 64)
            }
            return firstLine(text)
        }
        if let name = environmentVariable {
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
                throw CommandFailure("The environment variable \(name) is not set: set it to the password.", exitCode: 64)
            }
            return value
        }
        if isatty(STDIN_FILENO) == 1 { return try fromTerminal() }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw CommandFailure("No password on standard input.", exitCode: 64)
        }
        return line
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }

    /// Prompts on stderr and reads with echo off, restoring the terminal even on failure.
    static func fromTerminal() throws -> String {
        FileHandle.standardError.write(Data("Password: ".utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw CommandFailure("No password entered.", exitCode: 64)
        }
        return line
    }
}
