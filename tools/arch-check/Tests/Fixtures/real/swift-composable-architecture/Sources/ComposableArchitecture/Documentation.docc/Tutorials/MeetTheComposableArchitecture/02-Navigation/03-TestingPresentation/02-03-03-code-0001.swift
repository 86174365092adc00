import ComposableArchitecture
import Testing
@testable import ContactsApp
