import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to 127.0.0.1 that writes bytes as the test says: a request sent in parts,
/// with its body held back, which no HTTP client does on purpose.
public final class RawConnection {
    private let socket: Int32

    public init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    /// Writes all of `text`.
    public func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw POSIXError(.EPIPE) }
            offset += written
        }
    }

    /// Reads until the response's head has come, and returns its status line.
    public func readStatusLine() throws -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.range(of: Data("\r\n".utf8)) == nil {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")[0]
    }
}
