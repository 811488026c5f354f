@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzMachO

    /// `MachOFile.read` (`FuzzMachO`): never a trap; a refusal has a message; what is read lies within the
    /// file (each architecture, its signature), reading through ranges asks only for ranges within the
    /// file and gives the same file as reading the bytes whole; the entitlements a signature carries are
    /// read (XML or DER) or refused with a message, never a trap.
    public static func machO(_ bytes: [UInt8]) throws(FuzzFailure) {
        let file: MachOFile
        do {
            file = try MachOFile.read(bytes)
        } catch {
            try check(!error.message.isEmpty, "a file refused without a message")
            return
        }
        try check(!file.slices.isEmpty && (file.isFat || file.slices.count == 1), "\(file.slices.count) architectures read")
        for slice in file.slices {
            try check(slice.offset >= 0 && slice.offset < bytes.count, "an architecture at \(slice.offset) of \(bytes.count)")
            if let range = slice.signatureRange {
                try check(slice.offset + range.upperBound <= bytes.count, "a signature past the file")
                try check(slice.codeSignature != nil, "a signature range with no signature read")
            }
            guard let signature = slice.codeSignature else { continue }
            if let xml = signature.entitlements {
                do { _ = try PropertyListReader.standard.read(xml) } catch {
                    try check(!error.message.isEmpty, "entitlements refused without a message")
                }
            }
            if let der = signature.derEntitlements {
                do { _ = try DEREntitlements.decode(der) } catch {
                    try check(!error.message.isEmpty, "DER entitlements refused without a message")
                }
            }
        }
        var outside = false
        let again = try? MachOFile.read(size: bytes.count) { ranges throws(MachOError) in
            if ranges.contains(where: { $0.lowerBound < 0 || $0.upperBound > bytes.count }) { outside = true }
            return ranges.map { Array(bytes[max(0, $0.lowerBound)..<min(bytes.count, max($0.lowerBound, $0.upperBound))]) }
        }
        try check(!outside, "a range outside the file was asked for")
        try check(again == file, "reading through ranges gives another file")
    }
}
