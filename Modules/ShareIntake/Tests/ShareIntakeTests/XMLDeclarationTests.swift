import CShareKitLibXML2Check
import Testing

/// CLibXML2 declares the libxml2 functions it loads on first use instead of
/// including libxml2's headers; CLibXML2Check compiles those declarations
/// together with the headers, so a declaration that disagrees fails the
/// build of these tests before any test runs.
@Suite("libxml2's functions as CLibXML2 declares them")
struct XMLDeclarationTests {
    @Test("CLibXML2's declarations and constants agree with libxml2's headers (checked when this target is built)")
    func declarationsAgree() {
        #expect(sk_xml_declarations_checked() == 1)
    }
}
