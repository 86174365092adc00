// arch-check: checks the repository's architecture contracts.
// All logic lives in ArchCheckCore (tested there); this only runs it.
import ArchCheckCore
import Foundation

exit(await ArchCheckCommand.main())
