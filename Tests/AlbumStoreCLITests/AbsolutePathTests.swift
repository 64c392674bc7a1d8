import AlbumStore
import Foundation
import Testing
@testable import AlbumStoreCLI

/// `AbsolutePath.of` makes a --db path absolute as `URL(fileURLWithPath:).path` does.
struct AbsolutePathTests {
    @Test func relativePathsResolveAsURLResolvesThem() {
        for path in ["lib.sqlite", "./lib.sqlite", "../x/lib.sqlite", "a/./b/../c.sqlite", "a//b", "dir/", "../../../../../../x",
                     ".", "..", "/abs/./a/../b", "/", "a b/ç.sqlite"] {
            #expect(AbsolutePath.of(path) == URL(fileURLWithPath: path).path, "\(path)")
        }
    }
}
