/** REST API of alerts ({@code GET /api/v1/alerts}) and silences ({@code /api/v1/silences}). */
package io.lifeline.api.alert;
