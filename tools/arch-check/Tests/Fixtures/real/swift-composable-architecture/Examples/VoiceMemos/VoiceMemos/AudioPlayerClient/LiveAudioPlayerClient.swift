@preconcurrency import AVFoundation
import Dependencies
