// The `video` option of a create and of a languages addition (docs/video.md): what the dubbed
// video of each language it asks for shows. Absent means the defaults (no burned captions).

export const videoOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'How the dubbed video (deliverable type `video`, MP4) of each requested language is made.',
  properties: {
    burned_captions: {
      type: 'boolean',
      default: false,
      description: "Burn the language's own captions into the picture. The video stream is then re-encoded (H.264) instead of copied.",
    },
  },
} as const;
