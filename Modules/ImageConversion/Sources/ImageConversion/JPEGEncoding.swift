import ShareKitImageConversionInterface

/// The encoding half of a conversion, shared by the decoders: the JPEG's
/// header and metadata by the policy, the rows, the end.
struct JPEGEncoding {
    let options: JPEGConversionOptions
    let destination: Int32

    /// A JPEG in progress: rows go in through ``emitter``.
    struct Started {
        let writer: JPEGWriter
        let emitter: RowEmitter
        let width: Int
        let height: Int
        let removedLocation: Bool

        /// Ends the JPEG.
        /// - Throws: ``ImageConversionError`` when it cannot be written.
        func finish() throws(ImageConversionError) -> JPEGConversion {
            let size = try writer.finish()
            return JPEGConversion(width: width, height: height, size: size, removedLocation: removedLocation)
        }
    }

    /// Writes the header of a `width` × `height` JPEG (the output size) and its metadata.
    /// - Throws: ``ImageConversionError`` when it cannot be written.
    func start(width: Int, height: Int, metadata: PhotoMetadata) throws(ImageConversionError) -> Started {
        let blocks = JPEGMetadata(metadata, keep: options.keepMetadata, width: width, height: height)
        let writer = try JPEGWriter(fd: destination)
        try writer.start(
            width: width, height: height, quality: options.quality, exif: blocks.exif, xmp: blocks.xmp, icc: blocks.icc)
        return Started(
            writer: writer, emitter: RowEmitter(writer: writer, checkpoint: options.checkpoint), width: width,
            height: height, removedLocation: blocks.removedLocation)
    }

    /// Encodes a whole decoded image under an orientation.
    /// - Throws: ``ImageConversionError`` from the encoder or the checkpoint.
    func encode(_ raster: Raster, orientation: Orientation, metadata: PhotoMetadata) throws(ImageConversionError)
        -> JPEGConversion
    {
        let size = orientation.outputSize(width: raster.width, height: raster.height)
        let started = try start(width: size.width, height: size.height, metadata: metadata)
        try started.emitter.emit(raster, orientation: orientation)
        return try started.finish()
    }
}
