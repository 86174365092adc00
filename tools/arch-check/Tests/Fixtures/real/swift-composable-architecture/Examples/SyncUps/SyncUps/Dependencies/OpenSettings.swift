import Dependencies
import UIKit
