/// Reads a built app from the path a person gave: a directory (.app, .xcarchive, an unzipped .ipa) or a
/// zip archive (.ipa, a zip of an .app or an .xcarchive), checked whole first when it is one. Only what
/// the checks need is read: each target's Info.plist, its executable's header, load commands and code
/// signature, and its `embedded.mobileprovision`.
package enum AppBundleReader {
    /// The largest Info.plist read.
    package static let maximumInfoBytes = 8 << 20
    /// The directory an .ipa holds its app in.
    static let ipaDirectory = "Payload"

    /// The app at `path`.
    ///
    /// - Throws: ``AppReadError`` naming the member at fault: the input is unreadable, a hostile archive,
    ///   not an app, or holds an Info.plist, an executable or a profile that cannot be read.
    package static func read(_ path: String, zipLimits: ZipLimits = .standard) throws(AppReadError) -> AppBundle {
        let files: any AppFiles
        let isDirectory = FileSystem.isDirectory(path)
        if isDirectory {
            files = DirectoryAppFiles(root: path)
        } else {
            let file: RandomAccessFile
            do {
                file = try RandomAccessFile(path)
            } catch {
                throw AppReadError("cannot be read: \(error)")
            }
            do {
                files = ArchiveAppFiles(try ZipArchive(file, limits: zipLimits))
            } catch {
                throw AppReadError(member: error.member, error.problem)
            }
        }
        // `Carillon.app/` names the directory `Carillon.app`.
        let name = FileSystem.lastComponent(String(path.reversed().drop { $0 == "/" }.reversed()))
        let (form, root) = try locate(files, name: name, isDirectory: isDirectory)
        let appName = root.isEmpty ? name : String(root.split(separator: "/").last ?? "")
        var targets = [try target(files, root, bundleName: appName, isApp: true)]
        let plugIns = Self.join(root, "PlugIns")
        for name in try files.subdirectories(of: plugIns) where name.hasSuffix(".appex") {
            targets.append(try target(files, Self.join(plugIns, name), bundleName: "PlugIns/" + name, isApp: false))
        }
        return AppBundle(input: path, form: form, targets: targets)
    }

    static func join(_ directory: String, _ name: String) -> String { directory.isEmpty ? name : directory + "/" + name }

    /// Where the app is in `files`, and what the input is: a directory named `*.app` is the app; else
    /// exactly one `Payload/*.app`, `Products/Applications/*.app`, `*.app` or
    /// `*.xcarchive/Products/Applications/*.app`.
    static func locate(_ files: any AppFiles, name: String, isDirectory: Bool) throws(AppReadError) -> (AppBundle.Form, String) {
        if isDirectory, name.hasSuffix(".app") { return (.app, "") }
        var found: [(AppBundle.Form, String)] = []
        func apps(in directory: String, as form: AppBundle.Form) throws(AppReadError) {
            for app in try files.subdirectories(of: directory) where app.hasSuffix(".app") { found.append((form, join(directory, app))) }
        }
        try apps(in: ipaDirectory, as: .ipa)
        try apps(in: "Products/Applications", as: isDirectory ? .xcarchive : .zip)
        if !isDirectory {
            try apps(in: "", as: .zip)
            for archive in try files.subdirectories(of: "") where archive.hasSuffix(".xcarchive") {
                try apps(in: join(archive, "Products/Applications"), as: .zip)
            }
        }
        guard let first = found.first else {
            throw AppReadError("not an app: no \(ipaDirectory)/*.app, *.app or Products/Applications/*.app in it")
        }
        guard found.count == 1 else {
            throw AppReadError("holds \(found.count) apps (\(found.map { Quoting.single($0.1) }.joined(separator: ", "))): give one")
        }
        return first
    }

    /// The target whose bundle is at `path`.
    static func target(_ files: any AppFiles, _ path: String, bundleName: String, isApp: Bool) throws(AppReadError) -> AppTarget {
        let infoPath = join(path, "Info.plist")
        try refuseLink(files, infoPath)
        guard files.isFile(infoPath) else { throw AppReadError(member: infoPath, "missing: not an app bundle") }
        let bytes = try files.read(infoPath, maximumBytes: maximumInfoBytes)
        let info: PropertyListValue
        do {
            info = try PropertyListReader.standard.read(bytes)
        } catch {
            throw AppReadError(member: infoPath, error.message)
        }
        guard info.members != nil else { throw AppReadError(member: infoPath, "a \(info.typeName), not a dict") }
        var target = AppTarget(
            role: .app, path: path, bundleName: bundleName, info: info, infoForm: PropertyListReader.form(of: bytes) ?? .xml)
        if !isApp { target.role = AppTarget.role(extensionPoint: target.extensionPoint) }
        if let executable = target.executable {
            guard !executable.isEmpty, !executable.contains("/"), executable != "..", executable != "." else {
                throw AppReadError(member: infoPath, "CFBundleExecutable \(Quoting.single(executable)) is not a file name in the bundle")
            }
            try readExecutable(files, join(path, executable), into: &target)
        }
        let profilePath = join(path, "embedded.mobileprovision")
        try refuseLink(files, profilePath)
        if files.isFile(profilePath) {
            let profileBytes = try files.read(profilePath, maximumBytes: ProvisioningProfile.maximumBytes)
            do {
                target.profile = try ProvisioningProfile(profileBytes)
            } catch {
                throw AppReadError(member: profilePath, error.message)
            }
        }
        return target
    }

    /// A member the checks read that is a symbolic link is said to be one: the reader never follows a link
    /// (nothing outside the input is read in its name), so the file it points to is not there for it.
    private static func refuseLink(_ files: any AppFiles, _ path: String) throws(AppReadError) {
        guard files.isSymbolicLink(path) else { return }
        throw AppReadError(member: path, "a symbolic link, which is never followed: read the app with its real files in place")
    }

    /// The executable at `path`, when there is one: its Mach-O structure and signed entitlements.
    private static func readExecutable(_ files: any AppFiles, _ path: String, into target: inout AppTarget) throws(AppReadError) {
        try refuseLink(files, path)
        guard let size = files.size(of: path) else { return }
        let fetch = { (ranges: [Range<Int>]) throws(MachOError) -> [[UInt8]] in
            do throws(AppReadError) {
                return try files.read(path, ranges: ranges)
            } catch {
                throw MachOError(error.problem)
            }
        }
        let binary: MachOFile
        do throws(MachOError) {
            binary = try MachOFile.read(size: size, fetch: fetch)
        } catch {
            throw AppReadError(member: path, error.message)
        }
        target.binary = binary
        guard let signature = binary.slices.lazy.compactMap(\.codeSignature).first else { return }
        if let xml = signature.entitlements {
            do {
                target.entitlements = try PropertyListReader.standard.read(xml)
                target.entitlementsForm = .xml
            } catch {
                throw AppReadError(member: path, "its signed entitlements: \(error.message)")
            }
        } else if let der = signature.derEntitlements {
            do {
                target.entitlements = try DEREntitlements.decode(der)
                target.entitlementsForm = .der
            } catch {
                throw AppReadError(member: path, "its signed DER entitlements: \(error.message)")
            }
        }
    }
}
