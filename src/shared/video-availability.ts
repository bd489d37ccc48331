/** Whether a YouTube video can be dubbed, as its Data API status says; stored as is in youtube_videos.availability. */
export type VideoAvailability = 'available' | 'private' | 'unavailable' | 'live';
