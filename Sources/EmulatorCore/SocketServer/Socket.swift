#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A TCP socket's file descriptor and the few BSD calls the server makes on it, the same on Linux and Darwin.
/// `package`: the kit's test client and benchmark connect with it too.
package struct Socket {
    package let descriptor: Int32

    /// Why a listener could not start.
    enum ListenError: Error {
        case addressInUse(port: UInt16)
        case failed(call: String, errno: Int32)
    }

    /// A listening socket on `host:port` (port 0: the system picks a free one) and the port it got.
    static func makeListener(host: String, port: UInt16, backlog: Int32 = 128) throws -> (Socket, UInt16) {
        let descriptor = makeTCPSocket()
        guard descriptor >= 0 else { throw ListenError.failed(call: "socket", errno: errno) }
        let listener = Socket(descriptor: descriptor)
        var yes: Int32 = 1
        // Lets a restarted `lab serve` bind at once while old connections linger in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = ipv4Address(port: port)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            listener.close()
            throw ListenError.failed(call: "inet_pton(\(host))", errno: EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            listener.close()
            throw code == EADDRINUSE ? ListenError.addressInUse(port: port) : ListenError.failed(call: "bind", errno: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            listener.close()
            throw ListenError.failed(call: "listen", errno: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// A connection to `127.0.0.1:port`, for the kit's tests and benchmark (never another host).
    /// `receiveBuffer` (bytes) caps what the kernel holds for a client that does not read: a test's stalled
    /// reader fills up after kilobytes rather than megabytes.
    package static func connect(toLoopbackPort port: UInt16, receiveBuffer: Int32? = nil) -> Socket? {
        let descriptor = makeTCPSocket()
        guard descriptor >= 0 else { return nil }
        if var bytes = receiveBuffer {  // before connect, so the window offered is small from the start
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = ipv4Address(port: port)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                #if canImport(Glibc)
                return Glibc.connect(descriptor, pointer, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                return Darwin.connect(descriptor, pointer, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        let socket = Socket(descriptor: descriptor)
        guard connected == 0 else {
            socket.close()
            return nil
        }
        socket.configureConnection()
        return socket
    }

    private static func makeTCPSocket() -> Int32 {
        #if canImport(Glibc)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        return socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// An IPv4 address with `port` and no host yet.
    private static func ipv4Address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        return address
    }

    /// The next connection, or nil when accept failed (the peer left early, or the listener was closed).
    func accept() -> Socket? {
        #if canImport(Glibc)
        let accepted = Glibc.accept(descriptor, nil, nil)
        #else
        let accepted = Darwin.accept(descriptor, nil, nil)
        #endif
        guard accepted >= 0 else { return nil }
        let connection = Socket(descriptor: accepted)
        connection.configureConnection()
        return connection
    }

    /// Caps the kernel's send buffer (`SO_SNDBUF`) at about `bytes`.
    func setSendBuffer(_ bytes: Int32) {
        var value = bytes
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private func configureConnection() {
        var yes: Int32 = 1
        // Small messages go out at once rather than waiting for Nagle's algorithm.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Waits until the socket is readable or `deadline` passes. False on time-out.
    package func waitReadable(until deadline: Deadline) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, deadline.millisecondsLeft)
            if result > 0 { return true }
            if result == 0 { return false }
            if errno != EINTR { return true }  // let the read report the error
        }
    }

    /// Reads what is available into `buffer`: the count, 0 when the peer closed, -1 on an error.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Writes every byte; false when the peer is gone or the write timed out.
    package func sendAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)  // a vanished peer is an error code, not a SIGPIPE that kills the process
        #else
        let flags: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    package func sendAll(_ data: Data) -> Bool {
        data.isEmpty || data.withUnsafeBytes { sendAll($0) }
    }

    /// True when the peer has closed its side (or reset): checked between a stream's events, without blocking.
    package var peerHasClosed: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        if entry.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// A send that blocks longer than this fails, so a client that stops reading cannot hold a thread forever.
    package func setSendTimeout(_ seconds: TimeInterval) {
        var value = timeval()
        value.tv_sec = .init(seconds.rounded(.down))
        value.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)  // Int on Linux, Int32 on Darwin
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Wakes any thread blocked on this socket (reads return 0, writes fail) without freeing the descriptor.
    package func shutdownBoth() {
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #else
        _ = shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    /// Sends FIN (the answer is complete) while the peer's bytes can still be read.
    package func shutdownWrite() {
        #if canImport(Glibc)
        _ = shutdown(descriptor, Int32(SHUT_WR))
        #else
        _ = shutdown(descriptor, SHUT_WR)
        #endif
    }

    package func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// A point in time on the monotonic clock, for socket time-outs.
package struct Deadline {
    package let uptimeNanoseconds: UInt64

    package static func after(_ seconds: TimeInterval) -> Deadline {
        Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9))
    }

    package var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }

    /// For poll(2): at least 0, at most Int32.max.
    package var millisecondsLeft: Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        guard uptimeNanoseconds > now else { return 0 }
        return Int32(min(UInt64(Int32.max), (uptimeNanoseconds - now + 999_999) / 1_000_000))
    }

}
