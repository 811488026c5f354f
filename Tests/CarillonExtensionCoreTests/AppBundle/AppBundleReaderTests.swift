import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Where an app is found in a zip, from a table of layouts made from the generated healthy app by Python's
/// zipfile: an .ipa (also with `./` and doubled slashes), a zip of the .app, of an .xcarchive, or of its
/// contents; two apps and none are errors saying so.
@Suite struct AppBundleReaderTests {
    static let layouts: [(prefix: String, second: String?, form: AppBundle.Form?, path: String?, error: String?)] = [
        ("Payload/Carillon.app/", nil, .ipa, "Payload/Carillon.app", nil),
        ("./Payload/Carillon.app/", nil, .ipa, "Payload/Carillon.app", nil),
        ("Payload//Carillon.app/", nil, .ipa, "Payload/Carillon.app", nil),
        ("Carillon.app/", nil, .zip, "Carillon.app", nil),
        ("Carillon.xcarchive/Products/Applications/Carillon.app/", nil, .zip, "Carillon.xcarchive/Products/Applications/Carillon.app", nil),
        ("Products/Applications/Carillon.app/", nil, .zip, "Products/Applications/Carillon.app", nil),
        ("Payload/Carillon.app/", "Payload/Other.app/", nil, nil, "holds 2 apps"),
        ("Stuff/Carillon.app/", nil, nil, nil, "not an app"),
    ]

    @Test(arguments: 0..<layouts.count)
    func findsTheAppInEachLayout(index: Int) throws {
        let layout = Self.layouts[index]
        let app = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        let work = TemporaryDirectory("app-layouts")
        defer { work.remove() }
        let zip = work.file("app.zip")
        let script = """
            import os, sys, zipfile
            root, out, prefixes = sys.argv[1], sys.argv[2], sys.argv[3:]
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for prefix in prefixes:
                    for directory, _, files in os.walk(root):
                        for name in files:
                            path = os.path.join(directory, name)
                            z.write(path, prefix + os.path.relpath(path, root))
            """
        let made = try Command.run("/usr/bin/env", ["python3", "-c", script, app, zip, layout.prefix] + (layout.second.map { [$0] } ?? []))
        #expect(made.status == 0, "\(made.standardError)")
        do {
            let bundle = try AppBundleReader.read(zip)
            #expect(layout.error == nil)
            #expect(bundle.form == layout.form && bundle.app.path == layout.path)
            #expect(
                bundle.targets.map(\.bundleName) == [
                    "Carillon.app", "PlugIns/NotificationContent.appex", "PlugIns/NotificationService.appex",
                ])
        } catch {
            #expect(error.problem.contains(layout.error ?? "no error"), "\(error)")
        }
    }
}
