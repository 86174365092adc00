import IdentifiedCollections
import SwiftUI
import Tagged
