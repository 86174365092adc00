import ShareCLIKit

ShareCLI.run()
