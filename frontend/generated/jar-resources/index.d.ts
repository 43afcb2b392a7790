export * from './Flow';
