import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// RFC 3986 §5.4's examples, against its own base, plus the shapes redirects take in practice.
@Suite struct URLReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    @Test(arguments: [
        // §5.4.1 normal examples
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        // §5.4.2 abnormal examples
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ])
    func resolvesTheRFCExamples(reference: String, target: String) {
        #expect(URLReference.resolve(reference, against: Self.base) == target)
    }

    @Test(arguments: [
        ("https://cdn.example/a/b.png?x=1", "/img/png", "https://cdn.example/img/png"),
        ("https://cdn.example/a/b.png", "//other.example:8443/c", "https://other.example:8443/c"),
        ("https://cdn.example", "img.png", "https://cdn.example/img.png"),
        ("https://cdn.example/a/", "http://cdn.example/a", "http://cdn.example/a"),
        ("https://cdn.example/a/b", "HTTPS://u:p@cdn.example/", "HTTPS://u:p@cdn.example/"),
    ])
    func resolvesRedirectShapes(base: String, reference: String, target: String) {
        #expect(URLReference.resolve(reference, against: base) == target)
    }
}
