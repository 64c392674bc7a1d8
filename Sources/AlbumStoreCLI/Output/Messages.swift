import Foundation

/// Messages for people go to stderr, so stdout carries only data.
func inform(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
