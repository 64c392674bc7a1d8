import Foundation
import Testing

/// Runs the binary where file permissions apply, to test read-only files and folders.
///
/// The tests may run as root, for whom permission bits do not apply (a chmod 0555 folder is
/// still writable). So as root the binary runs through util-linux's `setpriv` as `nobody`,
/// which sees permissions exactly as any user does; as anyone else it runs directly. Why not
/// `chattr +i`, which stops even root: it needs a file system with the attribute and the
/// CAP_LINUX_IMMUTABLE capability (often missing in containers), and a test that dies before
/// its cleanup leaves files that nothing but another chattr can delete. Nor a read-only bind
/// mount: that needs mount rights and changes the machine for every other process.
/// Where neither way works (root without setpriv or a `nobody` user) the tests that need it
/// are disabled, with `reason` saying why.
enum Unprivileged {
    static var isRoot: Bool { geteuid() == 0 }

    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `nobody`'s user and group ids.
    static let nobody: (user: uid_t, group: gid_t)? = {
        guard let entry = getpwnam("nobody") else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }()

    static var isAvailable: Bool { !isRoot || (setpriv != nil && nobody != nil) }

    static let reason: Comment = "running as root without setpriv (util-linux) or a nobody user: no way to make permissions apply"

    /// The user the binary runs as: nobody when the tests run as root, else the tests' own.
    static var user: uid_t { isRoot ? nobody?.user ?? 0 : geteuid() }

    /// The executable and the arguments that come before the binary's path.
    static func command() throws -> (String, [String]) {
        guard isRoot else { return ("/usr/bin/env", []) }
        guard let setpriv, let nobody else { throw CocoaError(.featureUnsupported) }
        return (setpriv, ["--reuid=\(nobody.user)", "--regid=\(nobody.group)", "--clear-groups", "--"])
    }
}
