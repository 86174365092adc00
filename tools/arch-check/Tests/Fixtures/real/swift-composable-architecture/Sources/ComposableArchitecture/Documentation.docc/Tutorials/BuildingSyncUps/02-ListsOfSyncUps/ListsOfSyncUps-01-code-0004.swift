import Foundation
import IdentifiedCollections
import SwiftUI
import Tagged
