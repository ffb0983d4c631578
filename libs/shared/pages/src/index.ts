export { linkUrl, walkPages, type PageCover, type PageType, type RevisionFile, type RevisionPage, type RevisionReusableContent } from './revision-page';
