export { EMBED_SETTINGS, embedLimitsOf } from './embed-settings';
export { embedsWith, type Embeds } from './embeds';
export { getEmbed } from './get-embed.service';
