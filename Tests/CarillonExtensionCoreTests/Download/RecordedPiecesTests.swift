import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// How a replay cuts a recorded body: 64 KiB pieces, the recorded last piece whole, so that the cap
/// stops on the same piece as live.
@Suite struct RecordedPiecesTests {
    /// The piece sizes `RecordedPieces` emits for a body of `total` bytes fed in `chunk`-byte reads.
    static func sizes(total: Int, lastPiece: Int?, chunk: Int = 65_536) -> [Int] {
        var pieces = RecordedPieces(total: total, lastPiece: lastPiece)
        var sizes: [Int] = []
        let bytes = [UInt8](repeating: 7, count: total)
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < total {
                let end = min(offset + chunk, total)
                _ = pieces.add(UnsafeRawBufferPointer(rebasing: all[offset..<end])) { piece in
                    sizes.append(piece.count)
                    return true
                }
                offset = end
            }
        }
        _ = pieces.finish { piece in
            sizes.append(piece.count)
            return true
        }
        return sizes
    }

    @Test(
        arguments: [
            // No last piece recorded (another exporter's file): 64 KiB pieces, the rest last.
            (100_000, nil, [65_536, 34_464]),
            // The last 16 KiB decoded piece of a gzip body, whole, after the pieces before it.
            (100_000, 16_384, [65_536, 18_080, 16_384]),
            // A last piece across a read boundary is still one piece.
            (131_072, 100_000, [31_072, 100_000]),
            // The whole body was one piece.
            (5_000, 5_000, [5_000]),
            // A last piece larger than the body, or than libcurl ever hands over, is not believed.
            (5_000, 9_000, [5_000]),
            (5_000, RecordedPieces.maximumLastPiece + 1, [5_000]),
            (0, 0, []),
        ] as [(Int, Int?, [Int])])
    func feedsTheRecordedLastPieceWhole(total: Int, lastPiece: Int?, expected: [Int]) {
        #expect(Self.sizes(total: total, lastPiece: lastPiece) == expected)
    }

    /// Every byte goes through once, in order, whatever the reads.
    @Test func keepsTheBytesInOrder() {
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = RecordedPieces(total: bytes.count, lastPiece: 10_001)
        var out: [UInt8] = []
        bytes.withUnsafeBytes { all in
            for start in stride(from: 0, to: bytes.count, by: 4_096) {
                _ = pieces.add(UnsafeRawBufferPointer(rebasing: all[start..<min(start + 4_096, bytes.count)])) { piece in
                    out += piece
                    return true
                }
            }
        }
        _ = pieces.finish { piece in
            #expect(piece.count == 10_001)
            out += piece
            return true
        }
        #expect(out == bytes)
    }
}
